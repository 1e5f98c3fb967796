#include "host/web/WebServer.hpp"

#include "host/web/HostPageAssets.hpp"

#include "common/PageServer.hpp"
#include "common/SameToken.hpp"

#include <mcp/RandomId.hpp>
#include <mcp/transport/HostPolicy.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace web = boost::beast::http;
namespace json = boost::json;

namespace {

using common::PageServer;
using common::same_token;

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
using Request = PageServer::Request;
using Response = PageServer::Response;

struct Target {
    std::string path;
    std::string token;
    std::string session_id;
};

Target parse_target(std::string_view target) {
    Target parsed;
    auto url = boost::urls::parse_origin_form(target);
    if (!url) return parsed;
    parsed.path = std::string(url->path());
    for (auto parameter : url->params()) {
        if (parameter.key == "token") parsed.token = parameter.value;
        if (parameter.key == "sessionId") parsed.session_id = parameter.value;
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

}  // namespace

struct WebServer::State : std::enable_shared_from_this<State> {
    State(asio::any_io_executor executor, WebServerOptions options)
        : executor(executor), options(std::move(options)) {}

    asio::any_io_executor executor;
    WebServerOptions options;
    std::optional<mcp::HostPolicy> policy;
    std::optional<PageServer> server;
    /// The pages' WebSockets, for the heartbeat sweep (one timer for all of them).
    std::vector<std::weak_ptr<WebSocketClient>> pages;
    asio::steady_timer sweep_timer{executor};
    std::uint64_t next_client = 0;
    bool stopping = false;
    /// Bound beyond loopback: every path needs the token.
    bool wide = false;

    Response reply(const Request& request, web::status status, std::string body,
                   std::string_view type = "application/json") const {
        Response response = common::page_reply(request, status, std::move(body), type);
        // Nothing the page loads (an MCP App's view included) learns its address, which may carry
        // the token.
        response.set("Referrer-Policy", "no-referrer");
        // No other page may frame the chat: framed nearly invisible, it could be clicked into calling
        // tools (clickjacking). MCP Apps' views replace this with their own policy (framed by us).
        response.set("X-Frame-Options", "DENY");
        if (type.starts_with("text/html"))
            // The page loads only its own files; MCP Apps' views come from /apps/<id>, framed sandboxed.
            response.set("Content-Security-Policy",
                         "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                         "frame-src 'self'; media-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "
                         "base-uri 'none'; frame-ancestors 'none'");
        return response;
    }

    Response error(const Request& request, web::status status, const std::string& message) const {
        return reply(request, status, json::serialize(json::object{{"error", message}}));
    }

    bool authorised(const Request& request, const Target& target) const {
        if (same_token(target.token, options.token)) return true;
        std::string_view authorization = request[web::field::authorization];
        if (authorization.starts_with("Bearer ") && same_token(authorization.substr(7), options.token)) return true;
        // The page's own requests (its scripts, its WebSocket) carry the cookie set when it was
        // opened with ?token=.
        std::string_view cookies = request[web::field::cookie];
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

    /// The response, or nothing when the connection became a WebSocket.
    std::optional<Response> route(Request& request, const std::shared_ptr<PageServer::Stream>& stream) {
        auto origin = request.find(web::field::origin);
        std::optional<std::string_view> origin_value;
        if (origin != request.end()) origin_value = origin->value();
        if (auto problem = policy->check(request[web::field::host], origin_value))
            return error(request, web::status::forbidden, *problem);
        Target target = parse_target(request.target());
        bool allowed = authorised(request, target);
        // On loopback the sign-in's way back and the views are reachable without the token (the
        // OAuth state and the view's unguessable id tie them to this host); bound wide, not even those.
        bool open_path = !wide && (target.path == "/oauth/callback" || target.path.starts_with("/apps/"));
        if (!allowed && !open_path)
            return error(request, web::status::unauthorized,
                         "this host needs its token: open the address it printed (with ?token=), or send it as "
                         "Authorization: Bearer");
        if (target.path == "/oauth/callback" && options.on_oauth_callback && request.method() == web::verb::get)
            return reply(request, web::status::ok, options.on_oauth_callback(request.target()), "text/html; charset=utf-8");
        if (target.path.starts_with("/apps/") && options.app_view && request.method() == web::verb::get) {
            auto view = options.app_view(target.path.substr(6));
            if (!view) return error(request, web::status::not_found, "no such view (they are kept for the latest 256 calls)");
            Response response = reply(request, web::status::ok, std::move(view->first), "text/html; charset=utf-8");
            // The view's own policy, which lets only this host's page frame it (frame-ancestors 'self').
            response.set("Content-Security-Policy", view->second);
            response.set("X-Frame-Options", "SAMEORIGIN");
            return response;
        }
        bool get = request.method() == web::verb::get || request.method() == web::verb::head;
        if (target.path == "/ws") {
            if (!beast::websocket::is_upgrade(request))
                return error(request, web::status::upgrade_required, "/ws is a WebSocket; connect with one");
            // A page from elsewhere (not this host's own) must not drive the chat or its tools.
            if (origin_value && !mcp::HostPolicy::same_origin(*origin_value, request[web::field::host]) &&
                !mcp::HostPolicy::same_origin(*origin_value, request[web::field::host], "https"))
                return error(request, web::status::forbidden, "a WebSocket to /ws is accepted only from this host's page");
            auto client = std::make_shared<WebSocketClient>(stream->release_socket(), options.websocket);
            client->id = "conn_" + std::to_string(++next_client);
            pages.push_back(client);
            if (options.on_websocket) options.on_websocket(client, target.session_id);
            client->start(request);
            return std::nullopt;
        }
        if (!get) return error(request, web::status::method_not_allowed, "only GET is served here (and /ws)");
        if (target.path == "/health") {
            json::object health = options.health ? options.health() : json::object{};
            return reply(request, web::status::ok, json::serialize(health));
        }
        std::string_view asset = host_page_asset(target.path == "/" ? "/index.html" : target.path);
        if (asset.empty()) return error(request, web::status::not_found, "nothing at " + target.path);
        Response response = reply(request, web::status::ok, std::string(asset),
                                  content_type(target.path == "/" ? "/index.html" : target.path));
        // Lax, not Strict: the browser coming back from an authorization server (a cross-site
        // navigation) must carry it to /oauth/callback when the host is bound wide. Pages of other
        // sites still cannot use it: they get no cookie on a WebSocket or a subresource, and /ws
        // checks Origin too.
        if (same_token(target.token, options.token))
            response.set(web::field::set_cookie, "mcpkit_host_token=" + options.token + "; HttpOnly; SameSite=Lax; Path=/");
        return response;
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

WebServer::WebServer(asio::any_io_executor executor, WebServerOptions options)
    : state_(std::make_shared<State>(std::move(executor), std::move(options))) {}

WebServer::~WebServer() { stop(); }

void WebServer::start() {
    auto& state = *state_;
    auto address = PageServer::address_of(state.options.host);
    // A token always, on loopback too (as Jupyter does): any local process or user could otherwise
    // drive the chat and call its tools over a plain WebSocket.
    state.wide = !address.is_loopback();
    if (state.options.token.empty()) state.options.token = mcp::random_hex(16);
    state.policy = mcp::HostPolicy::for_server(state.options.host, state.options.allowed_hosts, {});
    std::weak_ptr<State> weak = state_;
    auto route = [weak](Request& request, std::shared_ptr<PageServer::Stream> stream) -> asio::awaitable<std::optional<Response>> {
        auto self = weak.lock();
        if (!self || self->stopping) co_return common::page_error(request, web::status::service_unavailable, "stopping");
        co_return self->route(request, stream);
    };
    state.server.emplace(state.executor, std::move(route), PageServer::Options{64 * 1024, "the chat page"});
    state.server->listen(address, state.options.port);
    asio::co_spawn(state.executor, state_->heartbeat_loop(), asio::detached);
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
