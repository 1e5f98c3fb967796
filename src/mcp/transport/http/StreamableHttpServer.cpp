// StreamableHttpServer: an MCP endpoint on libmcp's HTTP listener, and serve_http, the whole life
// of a server process.

#include "mcp/transport/StreamableHttpServer.hpp"

#include "transport/http/HttpListener.hpp"

#include <boost/asio/signal_set.hpp>

#include <optional>

namespace mcp {
namespace asio = boost::asio;

struct StreamableHttpServer::Impl {
    Impl(Server& server, asio::io_context& io, StreamableHttpServerOptions options)
        : server(server), io(io), listener(std::make_shared<http::HttpListener>(io, std::move(options))) {}
    Server& server;
    asio::io_context& io;
    std::shared_ptr<http::HttpListener> listener;
};

StreamableHttpServer::StreamableHttpServer(Server& server, asio::io_context& io, StreamableHttpServerOptions options)
    : impl_(std::make_shared<Impl>(server, io, std::move(options))) {}

StreamableHttpServer::~StreamableHttpServer() { impl_->listener->stop_threads(); }

void StreamableHttpServer::start() {
    auto& options = impl_->listener->options();
    if (!options.store) options.store = make_memory_session_store();
    auto endpoint = std::make_shared<http::McpEndpoint>(impl_->server, impl_->io, options);
    endpoint->start();
    impl_->listener->start(endpoint);
}

std::uint16_t StreamableHttpServer::port() const { return impl_->listener->port(); }

void StreamableHttpServer::reload_tls() { impl_->listener->reload_tls(); }

void StreamableHttpServer::stop(std::function<void()> done) { impl_->listener->stop(std::move(done)); }

int serve_http(Server& server, asio::io_context& io, StreamableHttpServerOptions options,
               std::function<void(std::uint16_t)> on_listening) {
    auto options_log = options.log;
    bool serves_tls = !options.tls_certificate_file.empty();
    StreamableHttpServer http(server, io, std::move(options));
    http.start();
    if (on_listening) on_listening(http.port());
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (!ec) http.stop([&io] { io.stop(); });
    });
    // SIGHUP, when serving TLS: read the certificate and key again (a renewed certificate),
    // keeping the old ones if the new files are unusable. Connections already open keep theirs.
    // Without TLS, SIGHUP keeps its usual meaning.
    std::optional<asio::signal_set> hangup;
    std::function<void()> watch_hangup = [&] {
        hangup->async_wait([&](const boost::system::error_code& ec, int) {
            if (ec) return;
            try {
                http.reload_tls();
                if (options_log) options_log("TLS certificate reloaded");
            } catch (const std::exception& e) {
                if (options_log) options_log(std::string("TLS certificate not reloaded, the old one stays: ") + e.what());
            }
            watch_hangup();
        });
    };
    if (serves_tls) {
        hangup.emplace(io, SIGHUP);
        watch_hangup();
    }
    io.run();
    return 0;
}

}  // namespace mcp
