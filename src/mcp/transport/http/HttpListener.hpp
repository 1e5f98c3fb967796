#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The listening half of libmcp's HTTP servers: the socket, the HTTP threads, TLS, the accept loop
// and an orderly shutdown. StreamableHttpServer gives it an MCP endpoint; HttpServer gives it
// none, and its routes are all it serves.

#include "mcp/transport/StreamableHttpServer.hpp"
#include "transport/http/HttpConnection.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace mcp::http {

class HttpListener : public std::enable_shared_from_this<HttpListener> {
public:
    HttpListener(boost::asio::io_context& io, StreamableHttpServerOptions options);
    ~HttpListener();

    /// Checks the options, binds and starts accepting, and starts the HTTP threads. `endpoint`
    /// null: no MCP endpoint (routes only). Throws on a bind failure or unusable TLS files.
    void start(std::shared_ptr<McpEndpoint> endpoint);
    std::uint16_t port() const;
    /// Reads the TLS files again, keeping the current ones when they are unusable (and throwing).
    void reload_tls();
    /// Safe from any thread; `done` runs on the io_context's thread.
    void stop(std::function<void()> done);
    void stop_threads();

    StreamableHttpServerOptions& options() { return options_; }

private:
    boost::asio::awaitable<void> accept_loop();
    void load_tls();
    boost::asio::awaitable<void> shut_down(std::function<void()> done);

    boost::asio::io_context& io_;
    StreamableHttpServerOptions options_;
    boost::asio::ip::tcp::acceptor acceptor_;
    /// Read by the accept loop and replaced by reload_tls(), both on io_'s thread; each connection
    /// keeps the context it started with.
    std::shared_ptr<boost::asio::ssl::context> tls_;
    std::shared_ptr<Frontend> frontend_;
    std::vector<std::unique_ptr<boost::asio::io_context>> extra_contexts_;
    std::vector<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guards_;
    std::vector<std::thread> threads_;
    bool stopping_ = false;
};

}  // namespace mcp::http
