#include "devconsole/tools/EventViews.hpp"

#include "devconsole/JsonFields.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>

namespace mcpkit::devconsole {
namespace json = boost::json;

namespace {

std::vector<json::object> parsed_newest(const CaptureRing& ring, std::size_t limit,
                                        const std::function<bool(const CapturedEntry&)>& accept = {}) {
    std::vector<json::object> found;
    ring.visit_newest_first([&](const CapturedEntry& entry) {
        if (accept && !accept(entry)) return true;
        boost::system::error_code ec;
        auto value = json::parse(entry.json, ec);
        if (!ec && value.is_object()) {
            auto& object = value.get_object();
            object["_time_ms"] = entry.time_ms;
            found.push_back(std::move(object));
        }
        return found.size() < limit;
    });
    return found;
}

bool on_tab(const CapturedEntry& entry, std::int64_t tracked_tab) {
    return tracked_tab == 0 || entry.tab_id == 0 || entry.tab_id == tracked_tab;
}

bool is_error(const CapturedEntry& entry) {
    return level_of(entry) == LogLevel::error || kind_of(entry) == LogKind::exception;
}

/// A JSON value inside `body` at "data.items[0].id", or nothing.
const json::value* at_path(const json::value& root, std::string_view path) {
    const json::value* current = &root;
    std::size_t at = 0;
    while (at < path.size() && current) {
        if (path[at] == '.') {
            ++at;
            continue;
        }
        if (path[at] == '[') {
            auto end = path.find(']', at);
            if (end == std::string_view::npos || !current->is_array()) return nullptr;
            std::size_t index = static_cast<std::size_t>(std::atoll(std::string(path.substr(at + 1, end - at - 1)).c_str()));
            const auto& array = current->get_array();
            current = index < array.size() ? &array[index] : nullptr;
            at = end + 1;
            continue;
        }
        auto end = path.find_first_of(".[", at);
        auto key = path.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
        current = current->is_object() ? current->get_object().if_contains(key) : nullptr;
        at = end == std::string_view::npos ? path.size() : end;
    }
    return current;
}

void collect_key(const json::value& value, std::string_view key, json::array& out, int depth = 0) {
    if (depth > 32 || out.size() >= 100) return;
    if (auto* object = value.if_object()) {
        for (const auto& [name, child] : *object) {
            if (name == key) out.push_back(child);
            collect_key(child, key, out, depth + 1);
        }
    } else if (auto* array = value.if_array()) {
        for (const auto& child : *array) collect_key(child, key, out, depth + 1);
    }
}

std::string rating(double value, double good, double poor) {
    if (value < 0) return "unknown";
    return value <= good ? "good" : value <= poor ? "needs-improvement" : "poor";
}

constexpr std::size_t inline_body_bytes = 4096;

}  // namespace

std::optional<std::string> log_query(const json::object& arguments, std::int64_t tracked_tab, bool errors_only,
                                     RingQuery& query, const NoiseRules& noise) {
    if (!noise.empty())
        query.is_noise = [&noise](const json::object& entry) {
            return noise.matches(json_fields::text(entry, "type") == "network" ? "network" : "console", entry);
        };
    std::optional<LogLevel> exact, minimum;
    if (auto level = string_argument(arguments, "level")) {
        exact = parse_log_level(*level);
        if (!exact) return "\"level\" is \"" + *level + "\": use debug, log, info, warn or error";
    }
    if (auto level = string_argument(arguments, "min_level")) {
        minimum = parse_log_level(*level);
        if (!minimum) return "\"min_level\" is \"" + *level + "\": use debug, log, info, warn or error";
    }
    auto scope = string_argument(arguments, "scope").value_or("current_page");
    if (scope != "current_page" && scope != "all") return "\"scope\" is \"" + scope + "\": use current_page or all";
    bool current_page = scope == "current_page";
    query.accept_entry = [=](const CapturedEntry& entry) {
        if (current_page && !on_tab(entry, tracked_tab)) return false;
        if (errors_only && !is_error(entry)) return false;
        if (exact && level_of(entry) != *exact) return false;
        if (minimum && level_of(entry) < *minimum) return false;
        return true;
    };
    auto source = string_argument(arguments, "source");
    auto url = string_argument(arguments, "url");
    if (source || url)
        query.accept_json = [source, url](const json::object& entry) {
            if (source && json_fields::text(entry, "source") != *source) return false;
            if (url && json_fields::text(entry, "url").find(*url) == std::string::npos) return false;
            return true;
        };
    return std::nullopt;
}

RingQuery network_query(const json::object& arguments, ArtifactStore& artifacts, const NoiseRules& noise) {
    RingQuery query;
    if (!noise.empty()) query.is_noise = [&noise](const json::object& entry) { return noise.matches("network", entry); };
    auto url = string_argument(arguments, "url");
    auto method = string_argument(arguments, "method");
    auto status_min = number_argument(arguments, "status_min");
    auto status_max = number_argument(arguments, "status_max");
    query.accept_json = [=](const json::object& entry) {
        if (url && json_fields::text(entry, "url").find(*url) == std::string::npos) return false;
        if (method) {
            auto own = json_fields::text(entry, "method");
            if (own.empty()) own = "GET";
            if (!std::equal(own.begin(), own.end(), method->begin(), method->end(),
                            [](char a, char b) { return std::toupper(a) == std::toupper(b); }))
                return false;
        }
        double status = json_fields::number(entry, "status", -1);
        if (status_min && status < *status_min) return false;
        if (status_max && status > *status_max) return false;
        return true;
    };
    auto body_key = string_argument(arguments, "body_key");
    auto body_path = string_argument(arguments, "body_path");
    query.shape = [body_key, body_path, &artifacts](json::object& entry) {
        auto body = json_fields::text(entry, "response_body");
        if ((body_key || body_path) && !body.empty()) {
            boost::system::error_code ec;
            auto parsed = json::parse(body, ec);
            if (ec) {
                entry["extracted_error"] = "response_body is not JSON";
            } else if (body_path) {
                auto* found = at_path(parsed, *body_path);
                entry["extracted"] = found ? *found : json::value(nullptr);
                if (!found) entry["extracted_error"] = "nothing at " + *body_path;
            } else {
                json::array values;
                collect_key(parsed, *body_key, values);
                entry["extracted"] = std::move(values);
            }
        }
        if (body.size() > inline_body_bytes) {
            auto content_type = json_fields::text(entry, "content_type");
            auto uri = artifacts.add("response body of " + json_fields::text(entry, "url"),
                                     content_type.empty() ? "text/plain" : content_type, body, false);
            entry["response_body"] = utf8_prefix(body, inline_body_bytes) + "…";
            entry["response_body_truncated"] = true;
            entry["response_body_bytes"] = body.size();
            entry["response_body_uri"] = uri;
        }
    };
    return query;
}

RingQuery websocket_query(const json::object& arguments) {
    RingQuery query;
    auto connection = string_argument(arguments, "connection_id");
    auto direction = string_argument(arguments, "direction");
    auto url = string_argument(arguments, "url");
    query.accept_json = [=](const json::object& entry) {
        if (connection && json_fields::text(entry, "id") != *connection) return false;
        if (direction && json_fields::text(entry, "direction") != *direction) return false;
        if (url && json_fields::text(entry, "url").find(*url) == std::string::npos) return false;
        return true;
    };
    return query;
}

RingQuery url_query(const json::object& arguments) {
    RingQuery query;
    if (auto url = string_argument(arguments, "url"))
        query.accept_json = [url](const json::object& entry) { return json_fields::text(entry, "url").find(*url) != std::string::npos; };
    return query;
}

mcp::CallToolResult websocket_status(const CaptureRing& ring, std::string_view what) {
    struct Connection {
        std::string url, state = "open";
        std::int64_t opened = 0, last = 0;
        std::size_t incoming = 0, outgoing = 0, bytes = 0;
        std::string last_message;
    };
    std::map<std::string, Connection> connections;
    ring.visit_after(0, [&](const CapturedEntry& entry) {
        boost::system::error_code ec;
        auto value = json::parse(entry.json, ec);
        if (ec || !value.is_object()) return true;
        const auto& event = value.get_object();
        auto& connection = connections[json_fields::text(event, "id")];
        if (connection.url.empty()) connection.url = json_fields::text(event, "url");
        auto kind = json_fields::text(event, "event");
        if (kind == "open") connection.opened = entry.time_ms, connection.state = "open";
        if (kind == "close") connection.state = "closed";
        if (kind == "error") connection.state = "error";
        if (kind == "message") {
            (json_fields::text(event, "direction") == "incoming" ? connection.incoming : connection.outgoing)++;
            connection.bytes += static_cast<std::size_t>(std::max(0.0, json_fields::number(event, "size", 0)));
            connection.last_message = utf8_prefix(json_fields::text(event, "data"), 200);
        }
        connection.last = entry.time_ms;
        return true;
    });
    json::array list;
    std::size_t open = 0;
    for (const auto& [id, connection] : connections) {
        if (connection.state == "open") ++open;
        json::object item{{"connection_id", id},        {"url", connection.url},
                          {"state", connection.state},  {"messages_in", connection.incoming},
                          {"messages_out", connection.outgoing}, {"bytes", connection.bytes},
                          {"last_activity", format_iso_time(connection.last)}};
        if (connection.opened) item["opened_at"] = format_iso_time(connection.opened);
        if (!connection.last_message.empty()) item["last_message"] = connection.last_message;
        list.push_back(std::move(item));
    }
    auto count = list.size();
    return answer(what, std::to_string(open) + " open of " + std::to_string(count) + " WebSocket connection(s) seen",
                  json::object{{"count", count}, {"open", open}, {"connections", std::move(list)}});
}

mcp::CallToolResult vitals(const CaptureRing& ring, std::string_view what, const json::object& arguments) {
    auto url = string_argument(arguments, "url");
    std::map<std::string, json::object> latest;  // per page
    for (auto& snapshot : parsed_newest(ring, 500)) {
        auto page = json_fields::text(snapshot, "url");
        if (url && page.find(*url) == std::string::npos) continue;
        if (!latest.contains(page)) latest.emplace(page, std::move(snapshot));
    }
    json::array pages;
    for (auto& [page, snapshot] : latest) {
        json::object vitals_of_page;
        if (auto* vitals_value = snapshot.if_contains("vitals"); vitals_value && vitals_value->is_object()) {
            const auto& values = vitals_value->get_object();
            double lcp = json_fields::number(values, "lcp", -1), cls = json_fields::number(values, "cls", -1), inp = json_fields::number(values, "inp", -1);
            vitals_of_page = json::object{{"lcp_ms", lcp >= 0 ? json::value(lcp) : json::value(nullptr)},
                                          {"lcp_rating", rating(lcp, 2500, 4000)},
                                          {"cls", cls >= 0 ? json::value(cls) : json::value(nullptr)},
                                          {"cls_rating", rating(cls, 0.1, 0.25)},
                                          {"inp_ms", inp >= 0 ? json::value(inp) : json::value(nullptr)},
                                          {"inp_rating", rating(inp, 200, 500)}};
        }
        json::object item{{"url", page}, {"vitals", std::move(vitals_of_page)}};
        if (auto* timing = snapshot.if_contains("timing")) item["timing"] = *timing;
        if (auto time = snapshot.if_contains("_time_ms")) item["captured_at"] = format_iso_time(time->to_number<std::int64_t>());
        pages.push_back(std::move(item));
    }
    auto count = pages.size();
    return answer(what, count ? "Vitals of " + std::to_string(count) + " page(s)" : "No performance snapshot captured yet",
                  json::object{{"count", count}, {"pages", std::move(pages)},
                               {"thresholds", "LCP good ≤ 2500 ms, poor > 4000; CLS good ≤ 0.1, poor > 0.25; INP good ≤ "
                                              "200 ms, poor > 500"}});
}

mcp::CallToolResult timeline(const CaptureBuffers& buffers, std::string_view what, const json::object& arguments,
                             std::int64_t tracked_tab) {
    auto limit = limit_argument(arguments, "limit", 50, 1000);
    std::vector<std::string> include{"logs", "network", "actions", "websocket"};
    if (auto* asked = arguments.if_contains("include"); asked && asked->is_array() && !asked->get_array().empty()) {
        include.clear();
        for (const auto& item : asked->get_array())
            if (item.is_string()) include.emplace_back(item.get_string());
    }
    auto wants = [&](std::string_view kind) { return std::find(include.begin(), include.end(), kind) != include.end(); };
    std::vector<std::pair<std::int64_t, json::object>> events;
    auto add = [&](Stream stream, std::string_view kind, const std::function<bool(const CapturedEntry&)>& accept) {
        for (auto& object : parsed_newest(buffers.ring(stream), limit, accept)) {
            auto time = object.at("_time_ms").to_number<std::int64_t>();
            object.erase("_time_ms");
            events.emplace_back(time, json::object{{"kind", kind}, {"at", format_iso_time(time)}, {"event", std::move(object)}});
        }
    };
    if (wants("logs") || wants("errors"))
        add(Stream::logs, "log", [&](const CapturedEntry& e) { return on_tab(e, tracked_tab) && (wants("logs") || is_error(e)); });
    if (wants("network")) add(Stream::network_bodies, "network", {});
    if (wants("actions")) add(Stream::actions, "action", {});
    if (wants("websocket")) add(Stream::websocket, "websocket", {});
    std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (events.size() > limit) events.resize(limit);
    std::reverse(events.begin(), events.end());
    json::array list;
    for (auto& [time, event] : events) list.push_back(std::move(event));
    auto count = list.size();
    return answer(what, std::to_string(count) + " event(s), oldest first",
                  json::object{{"count", count}, {"entries", std::move(list)}});
}

mcp::CallToolResult error_bundles(const CaptureBuffers& buffers, std::string_view what, const json::object& arguments,
                                  std::int64_t tracked_tab) {
    auto limit = limit_argument(arguments, "limit", 5, 50);
    double window = std::clamp(number_argument(arguments, "window_seconds").value_or(3), 0.0, 10.0);
    auto window_ms = static_cast<std::int64_t>(window * 1000);
    auto errors = parsed_newest(buffers.ring(Stream::logs), limit,
                                [&](const CapturedEntry& e) { return on_tab(e, tracked_tab) && is_error(e); });
    json::array bundles;
    for (auto& error : errors) {
        auto time = error.at("_time_ms").to_number<std::int64_t>();
        error.erase("_time_ms");
        auto around = [&](Stream stream, std::size_t most) {
            json::array found;
            buffers.ring(stream).visit_newest_first([&](const CapturedEntry& entry) {
                if (entry.time_ms > time) return true;
                if (entry.time_ms < time - window_ms) return false;
                boost::system::error_code ec;
                auto value = json::parse(entry.json, ec);
                if (!ec) found.push_back(std::move(value));
                return found.size() < most;
            });
            std::reverse(found.begin(), found.end());
            return found;
        };
        json::array logs_before;
        buffers.ring(Stream::logs).visit_newest_first([&](const CapturedEntry& entry) {
            if (entry.time_ms > time) return true;
            if (entry.time_ms < time - window_ms) return false;
            if (level_of(entry) >= LogLevel::warn && !is_error(entry)) logs_before.push_back(json::parse(entry.json));
            return logs_before.size() < 20;
        });
        bundles.push_back(json::object{{"error", std::move(error)},
                                       {"at", format_iso_time(time)},
                                       {"network", around(Stream::network_bodies, 20)},
                                       {"actions", around(Stream::actions, 20)},
                                       {"warnings", std::move(logs_before)}});
    }
    auto count = bundles.size();
    return answer(what, std::to_string(count) + " error bundle(s), each with the " + std::to_string(window_ms / 1000.0).substr(0, 4) +
                            " s before it",
                  json::object{{"count", count}, {"bundles", std::move(bundles)}});
}

std::string message_shape(std::string_view message) {
    std::string shape;
    shape.reserve(std::min<std::size_t>(message.size(), 300));
    for (std::size_t i = 0; i < message.size() && shape.size() < 300; ++i) {
        char c = message[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            while (i + 1 < message.size() && (std::isxdigit(static_cast<unsigned char>(message[i + 1])) || message[i + 1] == '.'))
                ++i;
            shape += "N";
        } else if (c == '"' || c == '\'') {
            auto end = message.find(c, i + 1);
            if (end != std::string_view::npos && end - i < 120) {
                shape += c;
                shape += "…";
                shape += c;
                i = end;
            } else {
                shape += c;
            }
        } else {
            shape += c;
        }
    }
    return shape;
}

mcp::CallToolResult summarized_logs(const CaptureRing& logs, std::string_view what, const json::object& arguments,
                                    std::int64_t tracked_tab) {
    auto min_group = static_cast<std::size_t>(std::max(2.0, number_argument(arguments, "min_group_size").value_or(2)));
    auto limit = limit_argument(arguments, "limit", 50, 1000);
    struct Group {
        std::size_t count = 0;
        std::string level, sample;
        std::int64_t first = 0, last = 0;
    };
    std::map<std::string, Group> groups;
    std::size_t total = 0;
    logs.visit_after(0, [&](const CapturedEntry& entry) {
        if (!on_tab(entry, tracked_tab)) return true;
        boost::system::error_code ec;
        auto value = json::parse(entry.json, ec);
        if (ec || !value.is_object()) return true;
        ++total;
        auto message = json_fields::text(value.get_object(), "message");
        auto& group = groups[std::string(to_string(level_of(entry))) + " " + message_shape(message)];
        if (group.count++ == 0) group.first = entry.time_ms, group.sample = utf8_prefix(message, 300),
                                group.level = std::string(to_string(level_of(entry)));
        group.last = entry.time_ms;
        return true;
    });
    std::vector<std::pair<std::string, Group>> sorted(groups.begin(), groups.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
    json::array grouped, singles;
    for (const auto& [shape, group] : sorted) {
        json::object item{{"level", group.level}, {"count", group.count}, {"sample", group.sample},
                          {"first", format_iso_time(group.first)}, {"last", format_iso_time(group.last)}};
        if (group.count >= min_group) {
            item["pattern"] = shape.substr(shape.find(' ') + 1);
            if (grouped.size() < limit) grouped.push_back(std::move(item));
        } else if (singles.size() < limit) {
            singles.push_back(std::move(item));
        }
    }
    auto group_count = grouped.size();
    return answer(what, std::to_string(total) + " entries in " + std::to_string(groups.size()) + " distinct message(s); " +
                            std::to_string(group_count) + " repeated",
                  json::object{{"total_entries", total}, {"groups", std::move(grouped)}, {"singles", std::move(singles)}});
}

mcp::CallToolResult navigation_history(const CaptureBuffers& buffers, std::string_view what, const json::object& arguments) {
    auto limit = limit_argument(arguments, "limit", 50, 1000);
    json::array pages;
    std::string previous;
    auto visit = [&](const CapturedEntry& entry) {
        boost::system::error_code ec;
        auto value = json::parse(entry.json, ec);
        if (ec || !value.is_object()) return true;
        auto url = json_fields::text(value.get_object(), "url");
        if (!url.empty() && url != previous) {
            pages.push_back(json::object{{"url", url}, {"first_seen", format_iso_time(entry.time_ms)}});
            previous = url;
        }
        return true;
    };
    // The pages the user went through, as the actions and performance snapshots saw them.
    buffers.ring(Stream::performance).visit_after(0, visit);
    if (pages.empty()) buffers.ring(Stream::actions).visit_after(0, visit);
    if (pages.size() > limit) pages.erase(pages.begin(), pages.begin() + static_cast<std::ptrdiff_t>(pages.size() - limit));
    auto count = pages.size();
    return answer(what, std::to_string(count) + " page(s) visited", json::object{{"count", count}, {"entries", std::move(pages)}});
}

ResultShaper screenshot_shaper(ArtifactStore& artifacts, std::string what) {
    return [&artifacts, what](const CommandSnapshot& snapshot) {
        auto result = command_answer(snapshot, what);
        const auto* object = snapshot.result.if_object();
        if (!object) return result;
        auto data_url = json_fields::text(*object, "data_url");
        std::string uri = json_fields::text(*object, "uri");  // uploaded through /screenshots already
        std::string mime = json_fields::text(*object, "mime_type");
        auto comma = data_url.find(',');
        auto semicolon = data_url.find(';');
        if (data_url.rfind("data:image/", 0) == 0 && comma != std::string::npos && semicolon < comma) {
            mime = data_url.substr(5, semicolon - 5);
            uri = artifacts.add("screenshot of " + json_fields::text(*object, "effective_tab_url"), mime, data_url.substr(comma + 1), true);
        }
        if (uri.rfind(ArtifactStore::uri_prefix, 0) != 0) return result;
        auto artifact = artifacts.find(uri.substr(ArtifactStore::uri_prefix.size()));
        json::object fields = result.structured_content->as_object();
        json::object summary;
        for (const auto& [key, value] : *object)
            if (key != "data_url") summary[key] = value;
        summary["uri"] = uri;
        summary["mime_type"] = mime;
        if (artifact) summary["base64_bytes"] = artifact->size();
        fields["result"] = std::move(summary);
        auto shaped = answer(what, "Screenshot saved as " + uri + " (read it with resources/read)", std::move(fields),
                             "complete");
        shaped.content.push_back(mcp::Content::resource_link(uri, "screenshot", mime));
        return shaped;
    };
}

}  // namespace mcpkit::devconsole
