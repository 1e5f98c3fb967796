#include "devconsole/extension/ExtensionRoutes.hpp"

#include <mcp/transport/BearerSecretAuthorizer.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <array>

namespace mcpkit::devconsole {
namespace json = boost::json;

namespace {

struct Route {
    std::string_view path;
    std::size_t max_body;
    bool extension_only;
};

constexpr std::size_t MiB = 1u << 20;
constexpr std::array<Route, 15> routes{{
    {"/sync", 5 * MiB, true},
    {"/logs", 10 * MiB, true},
    {"/websocket-events", 5 * MiB, true},
    {"/network-bodies", 10 * MiB, true},
    {"/enhanced-actions", 5 * MiB, true},
    {"/performance-snapshots", 5 * MiB, true},
    {"/extension-logs", 5 * MiB, true},
    {"/screenshots", 10 * MiB, true},
    {"/query-result", 10 * MiB, true},
    {"/pending-queries", 0, true},
    {"/api/extension-status", 64 * 1024, true},
    {"/clear", 0, true},
    {"/network-waterfall", 5 * MiB, true},
    {"/health", 0, false},
    {"/api/status", 0, false},
}};

const Route* find_route(std::string_view path) {
    for (const auto& route : routes)
        if (route.path == path) return &route;
    return nullptr;
}

mcp::HttpRouteResponse json_response(int status, std::string body) {
    mcp::HttpRouteResponse response;
    response.status = status;
    response.body = std::move(body);
    return response;
}

mcp::HttpRouteResponse error_response(int status, std::string_view message) {
    return json_response(status, json::serialize(json::object{{"error", message}}));
}

/// The host name of a Host header value: "[::1]:7890" → "::1", "localhost:7890" → "localhost".
std::string_view host_name(std::string_view host) {
    if (!host.empty() && host.front() == '[') {
        auto end = host.find(']');
        return end == std::string_view::npos ? host : host.substr(1, end - 1);
    }
    return host.substr(0, host.find(':'));
}

bool is_loopback_name(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    return lower == "localhost" || lower == "127.0.0.1" || lower == "::1";
}

bool is_extension_client(std::string_view client) {
    return client.rfind("gasoline-extension", 0) == 0 || client.rfind("mcpkit-devconsole", 0) == 0;
}

}  // namespace

bool ExtensionRoutes::serves(std::string_view path) const { return find_route(path) != nullptr; }

std::size_t ExtensionRoutes::max_body_bytes(std::string_view path) const {
    auto* route = find_route(path);
    return route ? route->max_body : 0;
}

bool ExtensionRoutes::extension_origin(std::string_view origin) const {
    for (std::string_view scheme : {"chrome-extension://", "moz-extension://"}) {
        if (origin.rfind(scheme, 0) != 0) continue;
        auto id = origin.substr(scheme.size());
        if (id.empty() || id.size() > 64) return false;
        if (!std::all_of(id.begin(), id.end(),
                         [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'; }))
            return false;
        const auto& pinned = console_.options().extension_ids;
        return pinned.empty() || std::find(pinned.begin(), pinned.end(), id) != pinned.end();
    }
    return false;
}

std::optional<mcp::HttpRouteResponse> ExtensionRoutes::refuse(const mcp::HttpRouteRequest& request,
                                                              bool extension_only) const {
    auto host = request.header("host");
    if (!host || !is_loopback_name(host_name(*host)))
        return error_response(403, "Invalid Host header: the daemon answers only to localhost, 127.0.0.1 and [::1]");
    if (auto origin = request.header("origin"); origin && !extension_origin(*origin))
        return error_response(403, "forbidden: invalid origin " + std::string(*origin) +
                                       "; only the devconsole browser extension may call this route");
    if (extension_only && request.method != "OPTIONS" &&
        !is_extension_client(request.header("x-gasoline-client").value_or("")))
        return error_response(403, "forbidden: missing or invalid X-Gasoline-Client header (the extension sends "
                                   "\"gasoline-extension/<version>\" or \"mcpkit-devconsole/<version>\")");
    return std::nullopt;
}

void ExtensionRoutes::handle(mcp::HttpRouteRequest request, std::function<void(mcp::HttpRouteResponse)> respond) {
    const Route& route = *find_route(request.path);
    // Kept by value: a held /sync answers after this function has returned.
    std::string origin(request.header("origin").value_or(""));
    auto cors = [origin](mcp::HttpRouteResponse response) {
        if (!origin.empty()) {
            response.headers.emplace_back("Access-Control-Allow-Origin", origin);
            response.headers.emplace_back("Vary", "Origin");
        }
        return response;
    };
    if (auto refusal = refuse(request, route.extension_only)) return respond(std::move(*refusal));
    if (request.method == "OPTIONS") {
        auto response = cors(json_response(204, ""));
        response.headers.emplace_back("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
        response.headers.emplace_back(
            "Access-Control-Allow-Headers",
            "Content-Type, X-Gasoline-Key, X-Gasoline-Client, X-Gasoline-Extension-Version");
        response.headers.emplace_back("Access-Control-Max-Age", "600");
        return respond(std::move(response));
    }
    auto path = request.path;
    if (path == "/sync")
        return sync_.handle(request, [respond = std::move(respond), cors](mcp::HttpRouteResponse response) {
            respond(cors(std::move(response)));
        });
    if (path == "/health" || path == "/api/status") {
        if (request.method != "GET" && request.method != "HEAD") return respond(error_response(405, "Use GET"));
        auto authorization = request.header("authorization").value_or("");
        bool full = mcp_secret_.empty() ||
                    (authorization.starts_with("Bearer ") && mcp::same_secret(authorization.substr(7), mcp_secret_));
        return respond(cors(json_response(200, console_.health(full))));
    }
    if (path == "/logs" && request.method == "DELETE") {
        console_.buffers().clear(Stream::logs);
        return respond(cors(json_response(200, R"({"cleared":true})")));
    }
    if (path == "/clear" && request.method == "POST") {
        for (std::size_t i = 0; i < stream_count; ++i) console_.buffers().clear(static_cast<Stream>(i));
        return respond(cors(json_response(200, R"({"cleared":true})")));
    }
    if (path == "/pending-queries" && request.method == "GET") {
        // The pre-/sync polling endpoint: what would be delivered now.
        auto delivery = console_.commands().take_delivery();
        return respond(cors(json_response(200, json::serialize(json::object{{"queries", delivery.commands}}))));
    }
    if (request.method != "POST") {
        auto response = cors(error_response(405, "Use POST for " + std::string(path)));
        response.headers.emplace_back("Allow", "POST, OPTIONS");
        return respond(std::move(response));
    }
    if (path == "/screenshots") return respond(cors(screenshot(request)));
    if (path == "/query-result") return respond(cors(query_result(request)));
    if (path == "/api/extension-status") return respond(cors(json_response(200, R"({"status":"ok"})")));
    Stream stream = Stream::logs;
    if (path == "/websocket-events") stream = Stream::websocket;
    else if (path == "/network-bodies") stream = Stream::network_bodies;
    else if (path == "/enhanced-actions") stream = Stream::actions;
    else if (path == "/performance-snapshots") stream = Stream::performance;
    else if (path == "/extension-logs") stream = Stream::extension_logs;
    else if (path == "/network-waterfall") {
        // Waterfall entries kept as one network snapshot each, beside the bodies.
        auto stored = console_.buffers().ingest(Stream::performance, request.body);
        return respond(cors(json_response(stored.status, std::move(stored.body))));
    }
    auto result = console_.buffers().ingest(stream, request.body);
    respond(cors(json_response(result.status, std::move(result.body))));
}

mcp::HttpRouteResponse ExtensionRoutes::screenshot(const mcp::HttpRouteRequest& request) {
    boost::system::error_code ec;
    auto parsed = json::parse(request.body, ec);
    if (ec || !parsed.is_object()) return error_response(400, "Invalid JSON: the body must be an object with data_url");
    const auto& body = parsed.get_object();
    // data_url is the field; dataUrl is what the original extension's error screenshots send.
    const json::value* data = body.if_contains("data_url");
    if (!data) data = body.if_contains("dataUrl");
    if (!data || !data->is_string()) return error_response(400, "Missing data_url (a data:image/...;base64,... URL)");
    std::string_view url = data->get_string();
    auto comma = url.find(',');
    if (url.rfind("data:image/", 0) != 0 || comma == std::string_view::npos || url.find(";base64") > comma)
        return error_response(400, "data_url must be a base64 data URL of an image (data:image/png;base64,…)");
    auto mime = std::string(url.substr(5, url.find(';') - 5));
    std::string query_id;
    if (auto* id = body.if_contains("query_id"); id && id->is_string()) query_id = id->get_string();
    // A screenshot that answers no pending command is an error screenshot, whatever id it names.
    if (!query_id.empty() && !console_.commands().awaits(query_id)) query_id.clear();
    if (query_id.empty()) {
        // Error screenshots: one a second at most.
        std::lock_guard lock(screenshot_mutex_);
        auto now = std::chrono::steady_clock::now();
        if (now - last_error_screenshot_ < std::chrono::seconds(1))
            return error_response(429, "At most one error screenshot a second");
        last_error_screenshot_ = now;
    }
    std::string page;
    if (auto* page_url = body.if_contains("url"); page_url && page_url->is_string()) page = page_url->get_string();
    auto uri = console_.artifacts().add("screenshot of " + page, mime, std::string(url.substr(comma + 1)), true);
    json::object answer{{"uri", uri}};
    if (!query_id.empty()) {
        json::object result{{"success", true}, {"uri", uri}, {"mime_type", mime}, {"url", page}};
        json::object wire{{"id", query_id}, {"status", "complete"}, {"result", std::move(result)}};
        if (query_id.rfind("q-", 0) != 0) wire = json::object{{"correlation_id", query_id}, {"status", "complete"},
                                                              {"result", wire.at("result")}};
        console_.commands().apply_result(wire);
        answer["correlation_id"] = query_id;
    }
    return json_response(200, json::serialize(answer));
}

mcp::HttpRouteResponse ExtensionRoutes::query_result(const mcp::HttpRouteRequest& request) {
    boost::system::error_code ec;
    auto parsed = json::parse(request.body, ec);
    if (ec || !parsed.is_object())
        return error_response(400, "Invalid JSON: the body must be {id, result} or {correlation_id, status, result}");
    const auto& body = parsed.get_object();
    if (!body.contains("id") && !body.contains("correlation_id"))
        return error_response(400, "Missing id or correlation_id");
    if (!console_.commands().apply_result(body))
        return error_response(404, "No pending command with that id or correlation_id (it may have expired)");
    return json_response(200, R"({"status":"ok"})");
}

}  // namespace mcpkit::devconsole
