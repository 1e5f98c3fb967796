#include "devconsole/tools/CaptureAnalysis.hpp"

#include "devconsole/JsonFields.hpp"
#include "devconsole/tools/EventViews.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>
#include <boost/url.hpp>

#include <cctype>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace mcpkit::devconsole {
namespace json = boost::json;

namespace {

void each_entry(const CaptureRing& ring, const std::function<void(const CapturedEntry&, const json::object&)>& visit) {
    ring.visit_after(0, [&](const CapturedEntry& entry) {
        boost::system::error_code ec;
        auto value = json::parse(entry.json, ec);
        if (!ec && value.is_object()) visit(entry, value.get_object());
        return true;
    });
}

/// The first frame of a stack that is not the console wrapper: "at f (https://x/app.js:10:5)".
std::string top_frame(std::string_view stack) {
    std::size_t at = 0;
    while (at < stack.size()) {
        auto end = stack.find('\n', at);
        auto line = stack.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
        auto first = line.find_first_not_of(" \t");
        if (first != std::string_view::npos && line.substr(first).rfind("at ", 0) == 0) return std::string(line.substr(first));
        if (end == std::string_view::npos) break;
        at = end + 1;
    }
    return {};
}

/// The shape of a JSON value: {"id":"number","items":["object"]}, to compare responses.
json::value shape_of(const json::value& value, int depth = 0) {
    switch (value.kind()) {
    case json::kind::object: {
        if (depth > 4) return "object";
        json::object shape;
        for (const auto& [key, child] : value.get_object()) shape[key] = shape_of(child, depth + 1);
        return shape;
    }
    case json::kind::array: {
        const auto& array = value.get_array();
        if (array.empty() || depth > 4) return json::array{};
        return json::array{shape_of(array[0], depth + 1)};
    }
    case json::kind::string: return "string";
    case json::kind::bool_: return "boolean";
    case json::kind::null: return "null";
    default: return "number";
    }
}

std::string endpoint_of(const json::object& body) {
    auto url = json_fields::text(body, "url");
    auto path = url.substr(0, url.find('?'));
    auto method = json_fields::text(body, "method");
    return (method.empty() ? std::string("GET") : method) + " " + message_shape(path);
}

}  // namespace

std::string origin_of(std::string_view url) {
    // Parsed, not cut: the origin goes into generated policies, where a space or ';' taken from a
    // page-made URL would add a directive.
    auto parsed = boost::urls::parse_uri(url);
    if (!parsed || !parsed->has_authority() || parsed->host().empty()) return {};
    std::string origin = std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_host());
    if (parsed->has_port()) origin += ":" + std::string(parsed->port());
    for (char c : origin)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string_view(":/.-[]_%").find(c) != std::string_view::npos))
            return {};
    return origin;
}

mcp::CallToolResult error_clusters(const CaptureBuffers& buffers, std::string_view what, const json::object& arguments,
                                   std::int64_t tracked_tab) {
    struct Cluster {
        std::size_t count = 0;
        std::string message, frame, first, last;
        std::set<std::string> urls;
    };
    std::map<std::string, Cluster> clusters;
    each_entry(buffers.ring(Stream::logs), [&](const CapturedEntry& entry, const json::object& object) {
        if (level_of(entry) != LogLevel::error && kind_of(entry) != LogKind::exception) return;
        if (tracked_tab && entry.tab_id && entry.tab_id != tracked_tab) return;
        auto message = json_fields::text(object, "message");
        auto frame = top_frame(json_fields::text(object, "stack"));
        auto& cluster = clusters[message_shape(message) + "|" + frame];
        if (cluster.count++ == 0) cluster.message = utf8_prefix(message, 500), cluster.frame = frame,
                                  cluster.first = format_iso_time(entry.time_ms);
        cluster.last = format_iso_time(entry.time_ms);
        if (cluster.urls.size() < 5) cluster.urls.insert(json_fields::text(object, "url"));
    });
    std::vector<Cluster> sorted;
    for (auto& [key, cluster] : clusters) sorted.push_back(std::move(cluster));
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
    auto limit = limit_argument(arguments, "limit", 20, 200);
    json::array list;
    std::size_t total = 0;
    for (const auto& cluster : sorted) {
        total += cluster.count;
        if (list.size() >= limit) continue;
        json::array urls;
        for (const auto& url : cluster.urls) urls.push_back(json::value(url));
        list.push_back(json::object{{"count", cluster.count}, {"message", cluster.message}, {"top_frame", cluster.frame},
                                    {"first", cluster.first}, {"last", cluster.last}, {"urls", std::move(urls)}});
    }
    auto count = list.size();
    return answer(what, std::to_string(total) + " error(s) in " + std::to_string(clusters.size()) + " cluster(s)",
                  json::object{{"count", count}, {"total_errors", total}, {"clusters", std::move(list)}});
}

mcp::CallToolResult performance_report(const CaptureBuffers& buffers, std::string_view what, const json::object& arguments) {
    auto page_vitals = vitals(buffers.ring(Stream::performance), what, arguments);
    std::vector<std::pair<double, json::object>> requests;
    double total_ms = 0;
    std::size_t failed = 0;
    each_entry(buffers.ring(Stream::network_bodies), [&](const CapturedEntry&, const json::object& body) {
        double duration = json_fields::number(body, "duration", 0);
        total_ms += duration;
        if (json_fields::number(body, "status", 0) >= 400) ++failed;
        requests.emplace_back(duration, json::object{{"url", json_fields::text(body, "url")}, {"method", json_fields::text(body, "method")},
                                                     {"status", json_fields::number(body, "status", 0)}, {"duration_ms", duration}});
    });
    std::stable_sort(requests.begin(), requests.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    json::array slowest;
    for (std::size_t i = 0; i < requests.size() && i < 10; ++i) slowest.push_back(requests[i].second);
    json::object fields = page_vitals.structured_content->as_object();
    fields["requests"] = json::object{{"count", requests.size()},
                                      {"failed", failed},
                                      {"mean_ms", requests.empty() ? 0.0 : total_ms / static_cast<double>(requests.size())},
                                      {"slowest", std::move(slowest)}};
    return answer(what, std::to_string(fields.at("count").as_uint64() + 0) + " page(s) with vitals, " +
                            std::to_string(requests.size()) + " request(s) captured",
                  std::move(fields));
}

mcp::CallToolResult third_party_audit(const CaptureBuffers& buffers, std::string_view what, const json::object& arguments,
                                      std::string_view page_url) {
    std::set<std::string> first_party;
    if (auto* origins = arguments.if_contains("first_party_origins"); origins && origins->is_array())
        for (const auto& origin : origins->get_array())
            if (origin.is_string()) first_party.insert(std::string(origin.get_string()));
    if (first_party.empty() && !origin_of(page_url).empty()) first_party.insert(origin_of(page_url));
    struct Party {
        std::size_t requests = 0;
        std::size_t bytes = 0;
        std::set<std::string> types;
    };
    std::map<std::string, Party> parties;
    each_entry(buffers.ring(Stream::network_bodies), [&](const CapturedEntry&, const json::object& body) {
        auto origin = origin_of(json_fields::text(body, "url"));
        if (origin.empty() || first_party.contains(origin)) return;
        auto& party = parties[origin];
        ++party.requests;
        party.bytes += json_fields::text(body, "response_body").size();
        if (auto type = json_fields::text(body, "content_type"); !type.empty()) party.types.insert(type.substr(0, type.find(';')));
    });
    json::array list;
    for (const auto& [origin, party] : parties) {
        json::array types;
        for (const auto& type : party.types) types.push_back(json::value(type));
        list.push_back(json::object{{"origin", origin}, {"requests", party.requests}, {"body_bytes_seen", party.bytes},
                                    {"content_types", std::move(types)}});
    }
    json::array first;
    for (const auto& origin : first_party) first.push_back(json::value(origin));
    auto count = list.size();
    return answer(what, std::to_string(count) + " third-party origin(s) among the captured requests",
                  json::object{{"count", count}, {"first_party_origins", std::move(first)}, {"third_parties", std::move(list)},
                               {"note", "Covers fetch/XHR captured by the extension; scripts, images and styles "
                                        "loaded by the page itself show in observe({what:'network_waterfall'})"}});
}

mcp::CallToolResult api_validation(CaptureBuffers& buffers, std::string_view what, const json::object& arguments) {
    auto operation = string_argument(arguments, "operation").value_or("analyze");
    if (operation == "clear") {
        buffers.clear(Stream::network_bodies);
        return answer(what, "Network bodies cleared: the next analysis starts afresh", json::object{{"operation", operation}});
    }
    if (operation != "analyze" && operation != "report")
        return failure(what, "invalid_argument", "\"operation\" is \"" + operation + "\": use analyze, report or clear");
    std::vector<std::string> ignored;
    if (auto* list = arguments.if_contains("ignore_endpoints"); list && list->is_array())
        for (const auto& item : list->get_array())
            if (item.is_string()) ignored.emplace_back(item.get_string());
    struct Endpoint {
        std::size_t calls = 0, errors = 0, non_json = 0;
        std::vector<std::string> shapes;  // distinct, in order seen
        std::map<int, std::size_t> statuses;
    };
    std::map<std::string, Endpoint> endpoints;
    each_entry(buffers.ring(Stream::network_bodies), [&](const CapturedEntry&, const json::object& body) {
        auto url = json_fields::text(body, "url");
        for (const auto& fragment : ignored)
            if (url.find(fragment) != std::string::npos) return;
        auto& endpoint = endpoints[endpoint_of(body)];
        ++endpoint.calls;
        int status = static_cast<int>(json_fields::number(body, "status", 0));
        ++endpoint.statuses[status];
        if (status >= 400) ++endpoint.errors;
        if (status >= 400) return;
        boost::system::error_code ec;
        auto parsed = json::parse(json_fields::text(body, "response_body"), ec);
        if (ec) {
            ++endpoint.non_json;
            return;
        }
        auto shape = json::serialize(shape_of(parsed));
        if (std::find(endpoint.shapes.begin(), endpoint.shapes.end(), shape) == endpoint.shapes.end())
            endpoint.shapes.push_back(shape);
    });
    json::array list;
    std::size_t inconsistent = 0;
    for (const auto& [name, endpoint] : endpoints) {
        json::object statuses;
        for (const auto& [status, count] : endpoint.statuses) statuses[std::to_string(status)] = count;
        json::array shapes;
        for (const auto& shape : endpoint.shapes) shapes.push_back(json::parse(shape));
        json::array issues;
        if (endpoint.shapes.size() > 1) {
            ++inconsistent;
            issues.push_back(json::value("response shape changed between calls (" + std::to_string(endpoint.shapes.size()) +
                                         " shapes)"));
        }
        if (endpoint.errors) issues.push_back(json::value(std::to_string(endpoint.errors) + " error response(s)"));
        json::object item{{"endpoint", name}, {"calls", endpoint.calls}, {"statuses", std::move(statuses)},
                          {"issues", std::move(issues)}};
        if (operation == "report") item["shapes"] = std::move(shapes);
        list.push_back(std::move(item));
    }
    auto count = list.size();
    return answer(what, std::to_string(count) + " endpoint(s); " + std::to_string(inconsistent) +
                            " with responses of changing shape",
                  json::object{{"operation", operation}, {"count", count}, {"endpoints", std::move(list)}});
}

mcp::CallToolResult security_audit(const CaptureBuffers& buffers, std::string_view what, const json::object& arguments) {
    // libstdc++'s default regex executor recurses per character: a page-made megabyte would
    // overflow the stack. The polynomial one does not, and only the start of each text is read.
    constexpr std::size_t scanned_prefix = 4000;
    constexpr auto linear = std::regex::ECMAScript | std::regex_constants::__polynomial;
    static const std::vector<std::pair<std::string, std::regex>> secrets{
        {"jwt", std::regex(R"(eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})", linear)},
        {"aws_access_key", std::regex(R"(AKIA[0-9A-Z]{16})", linear)},
        {"private_key", std::regex(R"(-----BEGIN [A-Z ]*PRIVATE KEY-----)", linear)},
        {"bearer_token", std::regex(R"([Bb]earer [A-Za-z0-9._~+/-]{20,})", linear)},
        {"api_key_parameter", std::regex(R"([?&](api[_-]?key|access[_-]?token|token|secret|password)=[^&\s"]{6,})",
                                         linear | std::regex::icase)},
    };
    auto severity_min = string_argument(arguments, "severity_min").value_or("info");
    const std::vector<std::string> order{"info", "low", "medium", "high", "critical"};
    auto rank = [&](std::string_view severity) {
        return std::find(order.begin(), order.end(), severity) - order.begin();
    };
    json::array findings;
    auto report = [&](std::string severity, std::string rule, std::string where, std::string detail) {
        if (rank(severity) < rank(severity_min) || findings.size() >= 200) return;
        findings.push_back(json::object{{"severity", severity}, {"rule", rule}, {"where", where}, {"detail", detail}});
    };
    auto scan = [&](std::string_view where, const std::string& text) {
        for (const auto& [name, pattern] : secrets) {
            std::smatch match;
            if (std::regex_search(text, match, pattern)) {
                auto found = match.str();
                report(name == "private_key" ? "critical" : "high", "secret_" + name, std::string(where),
                       "looks like a " + name + ": " + found.substr(0, 12) + "… (" + std::to_string(found.size()) + " chars)");
            }
        }
    };
    each_entry(buffers.ring(Stream::logs), [&](const CapturedEntry&, const json::object& entry) {
        scan("console: " + json_fields::text(entry, "url"), json_fields::text(entry, "message").substr(0, scanned_prefix));
    });
    each_entry(buffers.ring(Stream::network_bodies), [&](const CapturedEntry&, const json::object& body) {
        auto url = json_fields::text(body, "url");
        scan("request URL " + url.substr(0, 200), url.substr(0, scanned_prefix));
        scan("response of " + url.substr(0, 200), json_fields::text(body, "response_body").substr(0, scanned_prefix));
        if (url.rfind("http://", 0) == 0 && url.find("://localhost") == std::string::npos &&
            url.find("://127.0.0.1") == std::string::npos)
            report("medium", "plain_http_request", url.substr(0, 200), "sent without TLS");
    });
    auto count = findings.size();
    return answer(what, std::to_string(count) + " finding(s) in the captured console, URLs and bodies",
                  json::object{{"count", count}, {"findings", std::move(findings)},
                               {"scope", "secrets in console output, request URLs and response bodies; plain-HTTP "
                                         "requests. Response headers are not captured."}});
}

}  // namespace mcpkit::devconsole
