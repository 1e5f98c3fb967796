#pragma once
// The host's HTTP side: the chat page at /, its WebSocket at /ws, GET /health, served as routes of
// libmcp's HTTP server (mcp::HttpServer; the WebSocket takes its connection over). Loopback by
// default, Host and Origin checked against DNS rebinding, and every request needs the token
// (?token=, the cookie the page gets with it, or Authorization: Bearer), on loopback too.

#include "host/web/ConversationExport.hpp"
#include "host/web/WebSocketClient.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace mcpkit::host {

struct WebServerOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 3000;
    /// What every request must carry; made up at start() when empty.
    std::string token;
    /// Host names accepted beyond loopback (e.g. the name a load balancer forwards).
    std::vector<std::string> allowed_hosts;
    WebSocketLimits websocket;
    std::function<boost::json::object()> health;
    /// GET /oauth/callback (the browser back from an authorization server): the page to show.
    /// Served without the token on loopback (the OAuth state in the query ties it to a sign-in);
    /// bound wide, only with it (the page's cookie comes back with the browser).
    std::function<std::string(std::string_view target)> on_oauth_callback;
    /// GET /apps/<id>: an MCP App's view (HTML and its Content-Security-Policy), or nothing.
    /// Served without the token on loopback (the id is unguessable and the page frames it
    /// sandboxed); bound wide, only with it.
    std::function<std::optional<std::pair<std::string, std::string>>(const std::string& id)> app_view;
    /// GET /conversations/<id>/export?format=md|json: the file, or nothing for an unknown id;
    /// throws std::invalid_argument for a format it does not make.
    std::function<std::optional<ExportedConversation>(const std::string& id, std::string_view format)> export_conversation;
    /// A new page: `session_id` is what it asked to resume (may be empty).
    std::function<void(const std::shared_ptr<WebSocketClient>& client, const std::string& session_id)> on_websocket;
    std::function<void(std::string_view)> log;
};

class WebServer {
public:
    WebServer(boost::asio::io_context& io, WebServerOptions options);
    ~WebServer();
    /// Binds; throws std::runtime_error saying why it cannot.
    void start();
    void stop();
    std::uint16_t port() const;
    /// The page's address with its token: for the person, never for a log.
    std::string page_url() const;
    /// "http://host:port", the address browsers use (loopback for a wildcard bind).
    std::string base_url() const;

    struct State;

private:
    std::shared_ptr<State> state_;
};

}  // namespace mcpkit::host
