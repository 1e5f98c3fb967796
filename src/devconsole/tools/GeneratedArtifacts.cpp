#include "devconsole/tools/GeneratedArtifacts.hpp"

#include "devconsole/JsonFields.hpp"
#include "devconsole/tools/CaptureAnalysis.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

#include <set>

namespace mcpkit::devconsole {
namespace json = boost::json;

namespace {

std::vector<std::pair<std::int64_t, json::object>> all_entries(const CaptureRing& ring) {
    std::vector<std::pair<std::int64_t, json::object>> entries;
    ring.visit_after(0, [&](const CapturedEntry& entry) {
        boost::system::error_code ec;
        auto value = json::parse(entry.json, ec);
        if (!ec && value.is_object()) entries.emplace_back(entry.time_ms, std::move(value.get_object()));
        return true;
    });
    return entries;
}

/// A JavaScript string literal.
std::string quoted(std::string_view text) { return json::serialize(json::value(text)); }

/// The most robust selector an action recorded: id, then role and name, then text, then CSS path.
std::string locator_for(const json::object& action) {
    auto* selectors_value = action.if_contains("selectors");
    if (!selectors_value || !selectors_value->is_object()) return {};
    const auto& selectors = selectors_value->get_object();
    if (auto id = json_fields::text(selectors, "id"); !id.empty()) return "page.locator(" + quoted("#" + id) + ")";
    if (auto* role = selectors.if_contains("role"); role && role->is_object()) {
        auto name = json_fields::text(role->get_object(), "name");
        auto role_name = json_fields::text(role->get_object(), "role");
        if (!role_name.empty())
            return "page.getByRole(" + quoted(role_name) + (name.empty() ? "" : ", { name: " + quoted(name) + " }") + ")";
    }
    if (auto text = json_fields::text(selectors, "text"); !text.empty() && text.size() < 80) return "page.getByText(" + quoted(text) + ")";
    if (auto css = json_fields::text(selectors, "cssPath"); !css.empty()) return "page.locator(" + quoted(css) + ")";
    return {};
}

/// Text safe inside a // comment: the error may come from the page, and a line break in it would
/// end the comment and turn the rest into code the user runs.
std::string comment_text(std::string_view text) {
    std::string safe;
    for (std::size_t i = 0; i < text.size() && safe.size() < 300; ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        bool separator = i + 2 < text.size() && c == 0xE2 && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
                         (static_cast<unsigned char>(text[i + 2]) == 0xA8 || static_cast<unsigned char>(text[i + 2]) == 0xA9);
        if (separator) {
            safe += ' ';
            i += 2;
        } else {
            safe += c < 0x20 ? ' ' : static_cast<char>(c);
        }
    }
    return safe;
}

std::string with_base(std::string url, const std::string& base) {
    if (base.empty()) return url;
    auto origin = origin_of(url);
    return origin.empty() ? url : base + url.substr(origin.size());
}

}  // namespace

GeneratedArtifact make_har(const CaptureBuffers& buffers, const json::object& arguments) {
    auto url_filter = string_argument(arguments, "url");
    auto method_filter = string_argument(arguments, "method");
    auto status_min = number_argument(arguments, "status_min");
    auto status_max = number_argument(arguments, "status_max");
    json::array entries;
    for (auto& [time, body] : all_entries(buffers.ring(Stream::network_bodies))) {
        auto url = json_fields::text(body, "url");
        auto method = json_fields::text(body, "method");
        if (method.empty()) method = "GET";
        double status = json_fields::number(body, "status");
        if (url_filter && url.find(*url_filter) == std::string::npos) continue;
        if (method_filter && method != *method_filter) continue;
        if ((status_min && status < *status_min) || (status_max && status > *status_max)) continue;
        auto response_body = json_fields::text(body, "response_body");
        double duration = json_fields::number(body, "duration");
        json::object request{{"method", method}, {"url", url}, {"httpVersion", "HTTP/1.1"}, {"cookies", json::array{}},
                             {"headers", json::array{}}, {"queryString", json::array{}}, {"headersSize", -1},
                             {"bodySize", static_cast<std::int64_t>(json_fields::text(body, "request_body").size())}};
        if (auto sent = json_fields::text(body, "request_body"); !sent.empty())
            request["postData"] = json::object{{"mimeType", "application/json"}, {"text", sent}};
        entries.push_back(json::object{
            {"startedDateTime", format_iso_time(time)},
            {"time", duration},
            {"request", std::move(request)},
            {"response", json::object{{"status", status}, {"statusText", ""}, {"httpVersion", "HTTP/1.1"},
                                      {"cookies", json::array{}}, {"headers", json::array{}},
                                      {"content", json::object{{"size", static_cast<std::int64_t>(response_body.size())},
                                                               {"mimeType", json_fields::text(body, "content_type")},
                                                               {"text", response_body}}},
                                      {"redirectURL", ""}, {"headersSize", -1},
                                      {"bodySize", static_cast<std::int64_t>(response_body.size())}}},
            {"cache", json::object{}},
            {"timings", json::object{{"send", 0}, {"wait", duration}, {"receive", 0}}},
        });
    }
    auto count = entries.size();
    json::object har{{"log", json::object{{"version", "1.2"},
                                          {"creator", json::object{{"name", "mcpkit-devconsole"}, {"version", "0.1.0"}}},
                                          {"pages", json::array{}},
                                          {"entries", std::move(entries)}}}};
    return {"capture.har", "application/json", json::serialize(har), std::to_string(count) + " request(s) in HAR 1.2",
            json::object{{"entries", count}}};
}

GeneratedArtifact make_playwright_script(const CaptureBuffers& buffers, const json::object& arguments, bool as_test,
                                         std::string_view page_url) {
    auto actions = all_entries(buffers.ring(Stream::actions));
    if (auto last_n = number_argument(arguments, "last_n"); last_n && *last_n >= 1 && actions.size() > *last_n)
        actions.erase(actions.begin(), actions.end() - static_cast<std::ptrdiff_t>(*last_n));
    auto base = string_argument(arguments, "base_url").value_or("");
    std::string start = actions.empty() ? std::string(page_url) : json_fields::text(actions.front().second, "url");
    if (start.empty()) start = std::string(page_url);
    std::string steps;
    std::size_t used = 0, skipped = 0;
    for (const auto& [time, action] : actions) {
        auto type = json_fields::text(action, "type");
        auto locator = locator_for(action);
        std::string line;
        if (type == "navigate") line = "await page.goto(" + quoted(with_base(json_fields::text(action, "url"), base)) + ");";
        else if (locator.empty()) line.clear();
        else if (type == "click") line = "await " + locator + ".click();";
        else if (type == "input" || type == "change") line = "await " + locator + ".fill(" + quoted(json_fields::text(action, "value")) + ");";
        else if (type == "keypress") line = "await " + locator + ".press(" + quoted(json_fields::text(action, "key")) + ");";
        else if (type == "submit") line = "await " + locator + ".press('Enter');";
        if (line.empty()) {
            ++skipped;
            continue;
        }
        ++used;
        steps += "  " + line + "\n";
    }
    std::string script;
    auto name = string_argument(arguments, "test_name").value_or("reproduces the captured session");
    if (auto error = string_argument(arguments, "error_message"))
        script += "// Reproduces: " + comment_text(*error) + "\n";
    if (as_test) {
        script += "import { test, expect } from '@playwright/test';\n\ntest(" + quoted(name) + ", async ({ page }) => {\n";
        if (bool_argument(arguments, "assert_no_errors").value_or(true))
            script += "  const errors = [];\n  page.on('pageerror', (error) => errors.push(error.message));\n"
                      "  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });\n";
        if (bool_argument(arguments, "assert_network").value_or(false))
            script += "  const failed = [];\n  page.on('response', (response) => { if (response.status() >= 400) "
                      "failed.push(response.url()); });\n";
        script += "  await page.goto(" + quoted(with_base(start, base)) + ");\n" + steps;
        if (bool_argument(arguments, "assert_no_errors").value_or(true)) script += "  expect(errors).toEqual([]);\n";
        if (bool_argument(arguments, "assert_network").value_or(false)) script += "  expect(failed).toEqual([]);\n";
        script += "});\n";
    } else {
        script += "import { chromium } from 'playwright';\n\nconst browser = await chromium.launch({ headless: false });\n"
                  "const page = await browser.newPage();\n(async () => {\n  await page.goto(" +
                  quoted(with_base(start, base)) + ");\n" + steps + "})().finally(() => browser.close());\n";
    }
    return {as_test ? "session.spec.ts" : "reproduction.mjs", "text/javascript", script,
            std::to_string(used) + " action(s) turned into Playwright steps" +
                (skipped ? " (" + std::to_string(skipped) + " without a usable selector skipped)" : ""),
            json::object{{"steps", used}, {"skipped", skipped}}};
}

GeneratedArtifact make_pr_summary(const CaptureBuffers& buffers, const json::object&, std::string_view page_url) {
    std::size_t errors = 0, warnings = 0, failed = 0;
    std::set<std::string> error_messages, failed_requests;
    for (const auto& [time, entry] : all_entries(buffers.ring(Stream::logs))) {
        auto level = json_fields::text(entry, "level");
        if (level == "error" || json_fields::text(entry, "type") == "exception") {
            ++errors;
            if (error_messages.size() < 10) error_messages.insert(json_fields::text(entry, "message").substr(0, 200));
        } else if (level == "warn") {
            ++warnings;
        }
    }
    auto bodies = all_entries(buffers.ring(Stream::network_bodies));
    for (const auto& [time, body] : bodies)
        if (json_fields::number(body, "status") >= 400) {
            ++failed;
            if (failed_requests.size() < 10)
                failed_requests.insert(json_fields::text(body, "method") + " " + json_fields::text(body, "url") + " → " +
                                       std::to_string(static_cast<int>(json_fields::number(body, "status"))));
        }
    auto actions = buffers.ring(Stream::actions).statistics().entries;
    std::string text = "## Browser session\n\n";
    if (!page_url.empty()) text += "Page: " + std::string(page_url) + "\n\n";
    text += "| | count |\n|---|---|\n| console errors | " + std::to_string(errors) + " |\n| warnings | " +
            std::to_string(warnings) + " |\n| requests | " + std::to_string(bodies.size()) + " |\n| failed requests | " +
            std::to_string(failed) + " |\n| user actions | " + std::to_string(actions) + " |\n";
    if (!error_messages.empty()) {
        text += "\n### Errors\n\n";
        for (const auto& message : error_messages) text += "- `" + message + "`\n";
    }
    if (!failed_requests.empty()) {
        text += "\n### Failed requests\n\n";
        for (const auto& request : failed_requests) text += "- " + request + "\n";
    }
    return {"pr-summary.md", "text/markdown", text,
            std::to_string(errors) + " error(s), " + std::to_string(failed) + " failed request(s)",
            json::object{{"errors", errors}, {"warnings", warnings}, {"failed_requests", failed}}};
}

GeneratedArtifact make_content_security_policy(const CaptureBuffers& buffers, const json::object& arguments,
                                               std::string_view page_url) {
    auto mode = string_argument(arguments, "mode").value_or("moderate");
    std::set<std::string> excluded;
    if (auto* list = arguments.if_contains("exclude_origins"); list && list->is_array())
        for (const auto& item : list->get_array())
            if (item.is_string()) excluded.insert(std::string(item.get_string()));
    auto self = origin_of(page_url);
    std::set<std::string> connect, websocket;
    for (const auto& [time, body] : all_entries(buffers.ring(Stream::network_bodies))) {
        auto origin = origin_of(json_fields::text(body, "url"));
        if (!origin.empty() && origin != self && !excluded.contains(origin)) connect.insert(origin);
    }
    for (const auto& [time, event] : all_entries(buffers.ring(Stream::websocket))) {
        auto origin = origin_of(json_fields::text(event, "url"));
        if (!origin.empty() && !excluded.contains(origin)) websocket.insert(origin);
    }
    std::string connect_src = "'self'";
    for (const auto& origin : connect) connect_src += " " + origin;
    for (const auto& origin : websocket) connect_src += " " + origin;
    std::string policy = "default-src 'self'; connect-src " + connect_src + "; script-src 'self'" +
                         (mode == "strict" ? "" : " 'unsafe-inline'") + "; style-src 'self'" +
                         (mode == "strict" ? "" : " 'unsafe-inline'") + "; img-src 'self' data:; object-src 'none'; "
                         "base-uri 'self'; frame-ancestors 'self'";
    std::string header = mode == "report_only" ? "Content-Security-Policy-Report-Only" : "Content-Security-Policy";
    std::string content = header + ": " + policy + "\n";
    return {"content-security-policy.txt", "text/plain", content,
            "A " + mode + " policy allowing " + std::to_string(connect.size() + websocket.size()) + " other origin(s)",
            json::object{{"header", header}, {"policy", policy},
                         {"note", "Built from the fetch/XHR and WebSocket origins captured; scripts, styles and "
                                  "images the page loads itself are listed by observe({what:'network_waterfall'})"}}};
}

GeneratedArtifact make_sarif(const json::object& audit) {
    auto page = json_fields::text(audit, "effective_tab_url");
    json::array results;
    json::object rules_by_id;
    if (auto* violations = audit.if_contains("violations"); violations && violations->is_array())
        for (const auto& item : violations->get_array()) {
            if (!item.is_object()) continue;
            const auto& violation = item.get_object();
            auto rule = json_fields::text(violation, "rule");
            if (rule.empty()) rule = "accessibility";
            if (!rules_by_id.contains(rule))
                rules_by_id[rule] = json::object{{"id", rule}, {"shortDescription", json::object{{"text", rule}}}};
            json::object location{{"physicalLocation", json::object{{"artifactLocation", json::object{{"uri", page}}}}}};
            if (auto selector = json_fields::text(violation, "selector"); !selector.empty())
                location["logicalLocations"] = json::array{json::object{{"fullyQualifiedName", selector}, {"kind", "element"}}};
            results.push_back(json::object{{"ruleId", rule}, {"level", "warning"},
                                           {"message", json::object{{"text", json_fields::text(violation, "message")}}},
                                           {"locations", json::array{std::move(location)}}});
        }
    json::array rules;
    for (auto& [id, rule] : rules_by_id) rules.push_back(std::move(rule));
    auto count = results.size();
    json::object sarif{
        {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
        {"version", "2.1.0"},
        {"runs", json::array{json::object{
                     {"tool", json::object{{"driver", json::object{{"name", "mcpkit-devconsole"}, {"version", "0.1.0"},
                                                                   {"rules", std::move(rules)}}}}},
                     {"results", std::move(results)}}}}};
    return {"accessibility.sarif", "application/sarif+json", json::serialize(sarif),
            std::to_string(count) + " accessibility finding(s) of " + page, json::object{{"results", count}}};
}

}  // namespace mcpkit::devconsole
