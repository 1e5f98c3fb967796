#include "host/web/WebServer.hpp"

#include "host/web/HostPageAssets.hpp"
#include "host/web/WebSocketFrames.hpp"

#include "common/SameToken.hpp"

#include <mcp/RandomId.hpp>
#include <mcp/transport/HostPolicy.hpp>
#include <mcp/transport/HttpServer.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <cctype>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

using common::same_token;

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

struct Target {
    std::string path;
    std::string token;
    std::string session_id;
    std::string format;
};

Target parse_target(const mcp::HttpRouteRequest& request) {
    Target parsed;
    std::string target = request.path + "?" + request.query;  // the view below points into it
    auto url = boost::urls::parse_origin_form(target);
    if (!url) return parsed;
    parsed.path = std::string(url->path());  // percent-decoded
    for (auto parameter : url->params()) {
        if (parameter.key == "token") parsed.token = parameter.value;
        if (parameter.key == "sessionId") parsed.session_id = parameter.value;
        if (parameter.key == "format") parsed.format = parameter.value;
    }
    return parsed;
}

std::string_view content_type(std::string_view path) {
    if (path.ends_with(".js")) return "text/javascript; charset=utf-8";
    if (path.ends_with(".css")) return "text/css; charset=utf-8";
    if (path.ends_with(".svg")) return "image/svg+xml";
    if (path.ends_with(".png")) return "image/png";
    return "text/html; charset=utf-8";
}

/// Whether a comma-separated header value holds `token`, in any case (Connection: keep-alive, Upgrade).
bool lists_token(std::string_view value, std::string_view token) {
    while (!value.empty()) {
        std::size_t comma = value.find(',');
        std::string_view item = value.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        if (item.size() == token.size() &&
            std::equal(item.begin(), item.end(), token.begin(),
                       [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; }))
            return true;
        if (comma == std::string_view::npos) break;
        value.remove_prefix(comma + 1);
    }
    return false;
}

}  // namespace

struct WebServer::State : std::enable_shared_from_this<State> {
    State(asio::io_context& io, WebServerOptions options) : io(io), options(std::move(options)) {}

    asio::io_context& io;
    WebServerOptions options;
    std::optional<mcp::HostPolicy> policy;
    std::optional<mcp::HttpServer> server;
    /// The pages' WebSockets, for the heartbeat sweep (one timer for all of them).
    std::vector<std::weak_ptr<WebSocketClient>> pages;
    asio::steady_timer sweep_timer{io};
    std::uint64_t next_client = 0;
    bool stopping = false;
    /// Bound beyond loopback: every path needs the token.
    bool wide = false;

    mcp::HttpRouteResponse reply(int status, std::string body, std::string_view type = "application/json") const {
        mcp::HttpRouteResponse response;
        response.status = status;
        response.body = std::move(body);
        response.content_type = std::string(type);
        response.headers = {{"Cache-Control", "no-store"},
                            {"X-Content-Type-Options", "nosniff"},
                            // Nothing the page loads (an MCP App's view included) learns its
                            // address, which may carry the token.
                            {"Referrer-Policy", "no-referrer"},
                            // No other page may frame the chat: framed nearly invisible, it could
                            // be clicked into calling tools (clickjacking). MCP Apps' views replace
                            // this with their own policy (framed by us).
                            {"X-Frame-Options", "DENY"}};
        if (type.starts_with("text/html"))
            // The page loads only its own files; MCP Apps' views come from /apps/<id>, framed sandboxed.
            response.headers.emplace_back(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                "frame-src 'self'; media-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "
                "base-uri 'none'; frame-ancestors 'none'");
        return response;
    }

    mcp::HttpRouteResponse error(int status, const std::string& message) const {
        return reply(status, json::serialize(json::object{{"error", message}}));
    }

    static void set_header(mcp::HttpRouteResponse& response, std::string_view name, std::string value) {
        for (auto& [field, current] : response.headers)
            if (field == name) {
                current = std::move(value);
                return;
            }
        response.headers.emplace_back(std::string(name), std::move(value));
    }

    bool authorised(const mcp::HttpRouteRequest& request, const Target& target) const {
        if (same_token(target.token, options.token)) return true;
        std::string_view authorization = request.header("authorization").value_or("");
        if (authorization.starts_with("Bearer ") && same_token(authorization.substr(7), options.token)) return true;
        // The page's own requests (its scripts, its WebSocket) carry the cookie set when it was
        // opened with ?token=.
        std::string_view cookies = request.header("cookie").value_or("");
        for (std::size_t at = 0; at < cookies.size();) {
            std::size_t end = cookies.find(';', at);
            std::string_view cookie = cookies.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
            while (!cookie.empty() && cookie.front() == ' ') cookie.remove_prefix(1);
            if (cookie.starts_with("mcpkit_host_token=") && same_token(cookie.substr(18), options.token)) return true;
            if (end == std::string_view::npos) break;
            at = end + 1;
        }
        return false;
    }

    mcp::HttpRouteResponse route(const mcp::HttpRouteRequest& request) {
        std::string_view host = request.header("host").value_or("");
        auto origin = request.header("origin");
        if (auto problem = policy->check(host, origin)) return error(403, *problem);
        Target target = parse_target(request);
        bool allowed = authorised(request, target);
        // On loopback the sign-in's way back and the views are reachable without the token (the
        // OAuth state and the view's unguessable id tie them to this host); bound wide, not even those.
        bool open_path = !wide && (target.path == "/oauth/callback" || target.path.starts_with("/apps/"));
        if (!allowed && !open_path)
            return error(401, "this host needs its token: open the address it printed (with ?token=), or send it as "
                              "Authorization: Bearer");
        bool get = request.method == "GET" || request.method == "HEAD";
        if (target.path == "/oauth/callback" && options.on_oauth_callback && request.method == "GET") {
            std::string whole = request.path + (request.query.empty() ? "" : "?" + request.query);
            return reply(200, options.on_oauth_callback(whole), "text/html; charset=utf-8");
        }
        if (target.path.starts_with("/apps/") && options.app_view && request.method == "GET") {
            auto view = options.app_view(target.path.substr(6));
            if (!view) return error(404, "no such view (they are kept for the latest 256 calls)");
            mcp::HttpRouteResponse response = reply(200, std::move(view->first), "text/html; charset=utf-8");
            // The view's own policy, which lets only this host's page frame it (frame-ancestors 'self').
            set_header(response, "Content-Security-Policy", view->second);
            set_header(response, "X-Frame-Options", "SAMEORIGIN");
            return response;
        }
        if (target.path == "/ws") return upgrade(request, host, origin, target.session_id);
        if (!get) return error(405, "only GET is served here (and /ws)");
        if (target.path == "/health") {
            json::object health = options.health ? options.health() : json::object{};
            return reply(200, json::serialize(health));
        }
        if (target.path.starts_with("/conversations/") && target.path.ends_with("/export") && options.export_conversation)
            return export_conversation(target);
        std::string_view asset = host_page_asset(target.path == "/" ? "/index.html" : target.path);
        if (asset.empty()) return error(404, "nothing at " + target.path);
        mcp::HttpRouteResponse response =
            reply(200, std::string(asset), content_type(target.path == "/" ? "/index.html" : target.path));
        // Lax, not Strict: the browser coming back from an authorization server (a cross-site
        // navigation) must carry it to /oauth/callback when the host is bound wide. Pages of other
        // sites still cannot use it: they get no cookie on a WebSocket or a subresource, and /ws
        // checks Origin too.
        if (same_token(target.token, options.token))
            response.headers.emplace_back("Set-Cookie",
                                          "mcpkit_host_token=" + options.token + "; HttpOnly; SameSite=Lax; Path=/");
        return response;
    }

    mcp::HttpRouteResponse export_conversation(const Target& target) {
        std::string id = target.path.substr(15, target.path.size() - 15 - 7);
        std::optional<ExportedConversation> exported;
        try {
            exported = options.export_conversation(id, target.format.empty() ? "md" : target.format);
        } catch (const std::invalid_argument& e) {
            return error(400, std::string("format: ") + e.what());
        } catch (const std::exception& e) {
            return error(503, std::string("the chat store could not be read: ") + e.what());
        }
        if (!exported) return error(404, "no conversation " + id + " (deleted, or forgotten after a long silence)");
        mcp::HttpRouteResponse response = reply(200, std::move(exported->body), exported->content_type);
        set_header(response, "Content-Disposition", "attachment; filename=\"" + exported->file_name + "\"");
        set_header(response, "Cache-Control", "no-store");
        return response;
    }

    /// /ws: the WebSocket handshake (RFC 6455 §4.2), then the connection is the page's.
    mcp::HttpRouteResponse upgrade(const mcp::HttpRouteRequest& request, std::string_view host,
                                   std::optional<std::string_view> origin, const std::string& session_id) {
        if (request.method != "GET" || !lists_token(request.header("upgrade").value_or(""), "websocket") ||
            !lists_token(request.header("connection").value_or(""), "upgrade"))
            return error(426, "/ws is a WebSocket; connect with one");
        // A page from elsewhere (not this host's own) must not drive the chat or its tools.
        if (origin && !mcp::HostPolicy::same_origin(*origin, host) && !mcp::HostPolicy::same_origin(*origin, host, "https"))
            return error(403, "a WebSocket to /ws is accepted only from this host's page");
        if (request.header("sec-websocket-version").value_or("") != "13") {
            mcp::HttpRouteResponse refusal = error(426, "this host speaks WebSocket version 13");
            refusal.headers.emplace_back("Sec-WebSocket-Version", "13");
            return refusal;
        }
        auto key = websocket::accept_key(request.header("sec-websocket-key").value_or(""));
        if (!key) return error(400, "Sec-WebSocket-Key must be the base64 of 16 bytes");
        mcp::HttpRouteResponse switching;
        switching.status = 101;
        switching.headers = {{"Upgrade", "websocket"}, {"Connection", "Upgrade"}, {"Sec-WebSocket-Accept", *key},
                             {"Server", "mcpkit-host"}};
        switching.take_over = [weak = weak_from_this(), session_id](mcp::TakenConnection taken) {
            auto self = weak.lock();
            if (!self || self->stopping) return;
            auto client = std::make_shared<WebSocketClient>(std::move(taken.socket), self->options.websocket);
            client->id = "conn_" + std::to_string(++self->next_client);
            self->pages.push_back(client);
            if (self->options.on_websocket) self->options.on_websocket(client, session_id);
            client->start(taken.early_bytes);
        };
        return switching;
    }

    asio::awaitable<void> heartbeat_loop() {
        auto self = shared_from_this();
        // A quarter of the idle window: pings go out between a half and three quarters of it, and
        // a silent page is dropped within a quarter after the whole of it.
        auto period = std::max<std::chrono::steady_clock::duration>(options.websocket.idle_timeout / 4,
                                                                    std::chrono::milliseconds(250));
        while (!stopping) {
            sweep_timer.expires_after(period);
            auto [ec] = co_await sweep_timer.async_wait(use_tuple);
            if (ec || stopping) co_return;
            auto now = std::chrono::steady_clock::now();
            std::erase_if(pages, [now](const std::weak_ptr<WebSocketClient>& weak) {
                auto page = weak.lock();
                if (!page || page->ended()) return true;
                page->heartbeat(now);
                return false;
            });
        }
    }
};

namespace {

/// Every path is the host's. Holds the state weakly: the state holds the server that holds these.
class PageRoutes : public mcp::HttpRoutes {
public:
    explicit PageRoutes(std::weak_ptr<WebServer::State> state) : state_(std::move(state)) {}
    bool serves(std::string_view) const override { return true; }
    std::size_t max_body_bytes(std::string_view) const override { return 64 * 1024; }
    void handle(mcp::HttpRouteRequest request, std::function<void(mcp::HttpRouteResponse)> respond) override {
        auto state = state_.lock();
        if (!state || state->stopping) {
            mcp::HttpRouteResponse stopping;
            stopping.status = 503;
            stopping.body = R"({"error":"the host is stopping"})";
            return respond(std::move(stopping));
        }
        respond(state->route(request));
    }

private:
    std::weak_ptr<WebServer::State> state_;
};

}  // namespace

WebServer::WebServer(asio::io_context& io, WebServerOptions options)
    : state_(std::make_shared<State>(io, std::move(options))) {}

WebServer::~WebServer() { stop(); }

void WebServer::start() {
    auto& state = *state_;
    boost::system::error_code ec;
    auto address = asio::ip::make_address(state.options.host, ec);
    if (ec) throw std::runtime_error("--http: \"" + state.options.host + "\" is not an IP address; use e.g. 127.0.0.1");
    // A token always, on loopback too (as Jupyter does): any local process or user could otherwise
    // drive the chat and call its tools over a plain WebSocket.
    state.wide = !address.is_loopback();
    if (state.options.token.empty()) state.options.token = mcp::random_hex(16);
    state.policy = mcp::HostPolicy::for_server(state.options.host, state.options.allowed_hosts, {});
    mcp::HttpServerOptions http;
    http.host = state.options.host;
    http.port = state.options.port;
    http.routes = std::make_shared<PageRoutes>(state_);
    http.max_body_bytes = 64 * 1024;
    http.log = state.options.log;
    state.server.emplace(state.io, std::move(http));
    state.server->start();
    asio::co_spawn(state.io, state_->heartbeat_loop(), asio::detached);
}

void WebServer::stop() {
    auto& state = *state_;
    if (state.stopping) return;
    state.stopping = true;
    if (state.server) state.server->stop();
    state.sweep_timer.cancel();
    for (auto& weak : state.pages)
        if (auto page = weak.lock()) page->close();
}

std::uint16_t WebServer::port() const { return state_->server ? state_->server->port() : 0; }

std::string WebServer::base_url() const {
    std::string host = state_->options.host;
    if (host == "0.0.0.0" || host == "::") host = "localhost";
    if (host.find(':') != std::string::npos) host = "[" + host + "]";
    return "http://" + host + ":" + std::to_string(port());
}

std::string WebServer::page_url() const { return base_url() + "/?token=" + state_->options.token; }

}  // namespace mcpkit::host
