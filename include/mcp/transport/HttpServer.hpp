#pragma once
// An HTTP/1.1 server for an application's own pages and endpoints, on libmcp's HTTP stack (the
// one under StreamableHttpServer: its parser, keep-alive, limits, TLS and shutdown), with no MCP
// endpoint: every request goes to the routes, and a path they do not serve is answered 404.
// A route may take a connection over after its answer's head (a WebSocket, an event stream).
//
//   boost::asio::io_context io;
//   mcp::HttpServer pages(io, {.port = 8080, .routes = std::make_shared<MyPages>()});
//   pages.start();
//   io.run();
//
// The routes check Host, Origin and methods themselves (mcp::HostPolicy helps).

#include "mcp/Export.hpp"
#include "mcp/transport/HttpRoutes.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

namespace http {
class HttpListener;
}

/// Where an HttpServer listens, what it serves, and its limits.
struct MCP_API HttpServerOptions {
    std::string host = "127.0.0.1";  ///< The address to bind; the loopback interface by default.
    std::uint16_t port = 0;  ///< The port to bind; 0 lets the system choose (see HttpServer::port).
    std::shared_ptr<HttpRoutes> routes;  ///< What answers the requests; required.
    /// Threads that parse and write HTTP besides `io`'s; none by default: a page server is light,
    /// and its routes then all run on `io`'s thread, with the rest of the application.
    std::size_t http_threads = 0;
    /// Every body read is bounded by this (and by each route's own max_body_bytes).
    std::size_t max_body_bytes = 1024 * 1024;
    /// A connection that sends nothing for this long (between requests) is closed.
    std::chrono::seconds connection_idle_timeout{std::chrono::seconds(60)};
    /// HTTPS: the PEM certificate chain and its private key (both, or neither).
    std::string tls_certificate_file;
    std::string tls_private_key_file;  ///< The private key of `tls_certificate_file`, in PEM.
    /// Where the server reports what it could not do (an accept failing). Default: nothing.
    std::function<void(std::string_view)> log;
};

/// An HTTP/1.1 server for an application's own pages and endpoints, on libmcp's HTTP stack, with no
/// MCP endpoint: every request goes to the routes, and a path they do not serve is answered 404.
class MCP_API HttpServer {
public:
    /// A server that will run on `io`; nothing is bound until start(). Throws std::invalid_argument
    /// without routes.
    HttpServer(boost::asio::io_context& io, HttpServerOptions options);
    /// Stops accepting and stops the HTTP threads.
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Binds and starts accepting. Throws std::runtime_error ("cannot listen on HOST:PORT: why")
    /// when the address cannot be bound, std::invalid_argument for unusable TLS files.
    void start();
    /// The bound port (after start()).
    std::uint16_t port() const;
    /// Stops accepting, lets answers on their way be written (up to a second), then calls `done`
    /// on `io`'s thread. Connections the routes took over are theirs to close. Safe from any thread.
    void stop(std::function<void()> done = {});

private:
    std::shared_ptr<http::HttpListener> listener_;
};

}  // namespace mcp
