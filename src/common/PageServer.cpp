#include "common/PageServer.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/serialize.hpp>

#include <list>
#include <stdexcept>

namespace mcpkit::common {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace web = boost::beast::http;
using tcp = asio::ip::tcp;

namespace {
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
}

struct PageServer::State : std::enable_shared_from_this<State> {
    State(asio::any_io_executor executor, Route route, Options options)
        : executor(executor), acceptor(executor), route(std::move(route)), options(std::move(options)) {}

    asio::any_io_executor executor;
    tcp::acceptor acceptor;
    Route route;
    Options options;
    std::list<std::weak_ptr<Stream>> connections;
    bool stopping = false;

    asio::awaitable<void> serve(std::shared_ptr<Stream> stream) {
        auto self = shared_from_this();
        beast::flat_buffer buffer;
        for (;;) {
            web::request_parser<web::string_body> parser;
            parser.body_limit(options.max_body_bytes);
            stream->expires_after(std::chrono::seconds(60));
            auto [ec, n] = co_await web::async_read(*stream, buffer, parser, use_tuple);
            if (ec || stopping) break;
            stream->expires_never();
            Request request = parser.release();
            std::optional<Response> response = co_await route(request, stream);
            if (!response) co_return;  // the route took the connection
            bool keep_alive = response->keep_alive();
            stream->expires_after(std::chrono::seconds(60));
            auto [write_error, written] = co_await web::async_write(*stream, *response, use_tuple);
            if (write_error || !keep_alive || stopping) break;
        }
        boost::system::error_code ignored;
        stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream->close();
    }

    asio::awaitable<void> accept_loop() {
        auto self = shared_from_this();
        for (;;) {
            tcp::socket socket(executor);
            auto [ec] = co_await acceptor.async_accept(socket, use_tuple);
            if (ec) {
                if (stopping || ec == asio::error::operation_aborted) co_return;
                // Out of descriptors and the like: keep accepting, without spinning meanwhile.
                asio::steady_timer pause(executor, std::chrono::milliseconds(100));
                co_await pause.async_wait(use_tuple);
                continue;
            }
            socket.set_option(tcp::no_delay(true), ec);
            auto stream = std::make_shared<Stream>(std::move(socket));
            std::erase_if(connections, [](const auto& weak) { return weak.expired(); });
            connections.push_back(stream);
            asio::co_spawn(executor, serve(stream), asio::detached);
        }
    }
};

PageServer::PageServer(asio::any_io_executor executor, Route route, Options options)
    : state_(std::make_shared<State>(std::move(executor), std::move(route), std::move(options))) {}

PageServer::~PageServer() { stop(); }

asio::ip::address PageServer::address_of(const std::string& host) {
    boost::system::error_code ec;
    auto address = asio::ip::make_address(host, ec);
    if (ec) throw std::runtime_error("--http: \"" + host + "\" is not an IP address; use e.g. 127.0.0.1");
    return address;
}

void PageServer::listen(const asio::ip::address& address, std::uint16_t port) {
    auto& state = *state_;
    boost::system::error_code ec;
    tcp::endpoint endpoint(address, port);
    state.acceptor.open(endpoint.protocol());
    state.acceptor.set_option(asio::socket_base::reuse_address(true));
    state.acceptor.bind(endpoint, ec);
    if (ec)
        throw std::runtime_error("cannot serve " + state.options.what + " on " + address.to_string() + ":" +
                                 std::to_string(port) + ": " + ec.message());
    state.acceptor.listen(asio::socket_base::max_listen_connections);
    asio::co_spawn(state.executor, state_->accept_loop(), asio::detached);
}

void PageServer::stop() {
    auto& state = *state_;
    if (state.stopping) return;
    state.stopping = true;
    boost::system::error_code ignored;
    state.acceptor.close(ignored);
    for (auto& weak : state.connections)
        if (auto connection = weak.lock()) connection->socket().close(ignored);
}

std::uint16_t PageServer::port() const { return state_->acceptor.local_endpoint().port(); }

PageServer::Response page_reply(const PageServer::Request& request, web::status status, std::string body,
                                std::string_view type) {
    PageServer::Response response{status, request.version()};
    response.set(web::field::content_type, type);
    response.set(web::field::cache_control, "no-store");
    response.set("X-Content-Type-Options", "nosniff");
    response.body() = std::move(body);
    response.keep_alive(request.keep_alive());
    response.prepare_payload();
    return response;
}

PageServer::Response page_error(const PageServer::Request& request, web::status status, const std::string& message) {
    return page_reply(request, status, boost::json::serialize(boost::json::object{{"error", message}}));
}

}  // namespace mcpkit::common
