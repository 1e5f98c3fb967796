#include "mcp/transport/HttpServer.hpp"

#include "transport/http/HttpListener.hpp"

#include <boost/system/system_error.hpp>

#include <stdexcept>

namespace mcp {

namespace {

StreamableHttpServerOptions listener_options(HttpServerOptions options) {
    if (!options.routes) throw std::invalid_argument("an HttpServer needs routes to serve");
    StreamableHttpServerOptions listener;
    listener.host = std::move(options.host);
    listener.port = options.port;
    listener.routes = std::move(options.routes);
    listener.http_threads = options.http_threads;
    listener.max_body_bytes = options.max_body_bytes;
    listener.connection_idle_timeout = options.connection_idle_timeout;
    listener.tls_certificate_file = std::move(options.tls_certificate_file);
    listener.tls_private_key_file = std::move(options.tls_private_key_file);
    listener.log = std::move(options.log);
    listener.shutdown_grace = std::chrono::seconds(1);
    return listener;
}

}  // namespace

HttpServer::HttpServer(boost::asio::io_context& io, HttpServerOptions options)
    : listener_(std::make_shared<http::HttpListener>(io, listener_options(std::move(options)))) {}

HttpServer::~HttpServer() {
    listener_->stop({});  // the accept loop holds the listener: without this it would go on serving
    listener_->stop_threads();
}

void HttpServer::start() {
    try {
        listener_->start(nullptr);
    } catch (const boost::system::system_error& e) {
        const auto& options = listener_->options();
        throw std::runtime_error("cannot listen on " + options.host + ":" + std::to_string(options.port) + ": " +
                                 e.code().message());
    }
}

std::uint16_t HttpServer::port() const { return listener_->port(); }

void HttpServer::stop(std::function<void()> done) { listener_->stop(std::move(done)); }

}  // namespace mcp
