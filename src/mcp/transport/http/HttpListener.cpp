// HttpListener: the listening socket, the HTTP threads, and an orderly shutdown.

#include "transport/http/HttpListener.hpp"

#include "transport/http/TlsServer.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <sched.h>
#include <stdexcept>

namespace mcp::http {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

/// The cores this process may use: its affinity mask (taskset, a container's cpuset), which
/// can be fewer than the machine has. Threads beyond it only take turns on the same cores.
std::size_t usable_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<std::size_t>(CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

asio::awaitable<void> serve_accepted(tcp::socket socket, std::shared_ptr<Frontend> frontend,
                                     asio::io_context::executor_type executor, std::shared_ptr<asio::ssl::context> tls) {
    if (!tls) {
        co_await serve_http_connection(ServerStream(std::move(socket)), frontend, executor);
        co_return;
    }
    std::string error;
    auto secure = co_await tls_accept(std::move(socket), *tls, frontend->options.connection_idle_timeout, error);
    if (!secure) {
        if (frontend->options.log) frontend->options.log("TLS handshake failed: " + error);
        co_return;
    }
    co_await serve_http_connection(ServerStream(std::move(*secure)), frontend, executor);
}

}  // namespace

void Frontend::keep(std::weak_ptr<IdleConnection> connection) {
    std::lock_guard lock(connections_mutex);
    std::erase_if(connections, [](const std::weak_ptr<IdleConnection>& kept) { return kept.expired(); });
    connections.push_back(std::move(connection));
}

void Frontend::close_idle_connections() {
    std::lock_guard lock(connections_mutex);
    for (const auto& kept : connections)
        if (auto connection = kept.lock()) connection->close_if_idle();
}

bool Frontend::serving() {
    std::lock_guard lock(connections_mutex);
    return std::any_of(connections.begin(), connections.end(), [](const auto& kept) { return !kept.expired(); });
}

HttpListener::HttpListener(asio::io_context& io, StreamableHttpServerOptions options)
    : io_(io), options_(std::move(options)), acceptor_(io) {}

HttpListener::~HttpListener() { stop_threads(); }

void HttpListener::start(std::shared_ptr<McpEndpoint> endpoint) {
    // Checked before binding: a malformed --allow-origin is a startup error, not a silent refusal.
    auto host_policy = HostPolicy::for_server(options_.host, options_.allowed_hosts, options_.allowed_origins,
                                              options_.only_listed_origins);
    load_tls();
    tcp::resolver resolver(io_);
    auto endpoints = resolver.resolve(options_.host, std::to_string(options_.port),
                                      tcp::resolver::passive | tcp::resolver::numeric_service);
    tcp::endpoint address = endpoints.begin()->endpoint();
    acceptor_.open(address.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(address);
    acceptor_.listen(asio::socket_base::max_listen_connections);
    frontend_ = std::shared_ptr<Frontend>(
        new Frontend{options_, std::move(host_policy), io_.get_executor(), std::move(endpoint), {}, {}});

    std::size_t extra = options_.http_threads.value_or(std::max<std::size_t>(1, usable_cores()) - 1);
    for (std::size_t i = 0; i < extra; ++i) {
        extra_contexts_.push_back(std::make_unique<asio::io_context>(1));
        guards_.push_back(asio::make_work_guard(*extra_contexts_.back()));
    }
    for (auto& context : extra_contexts_) threads_.emplace_back([&context] { context->run(); });
    asio::co_spawn(io_, accept_loop(), asio::detached);
}

std::uint16_t HttpListener::port() const { return acceptor_.local_endpoint().port(); }

asio::awaitable<void> HttpListener::accept_loop() {
    auto self = shared_from_this();
    std::size_t next = 0;
    for (;;) {
        // Connections are spread over io_'s thread and the HTTP threads.
        asio::io_context& context = next == 0 ? io_ : *extra_contexts_[next - 1];
        next = (next + 1) % (extra_contexts_.size() + 1);
        auto [ec, socket] = co_await acceptor_.async_accept(context.get_executor(), asio::as_tuple(asio::use_awaitable));
        if (ec == asio::error::operation_aborted || !acceptor_.is_open()) break;
        if (ec) {
            // Out of descriptors, most likely: back off instead of spinning.
            if (options_.log) options_.log("accept failed: " + ec.message());
            asio::steady_timer pause(io_, std::chrono::milliseconds(50));
            co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
            continue;
        }
        // The TLS handshake, if any, runs on the connection's thread, not io_'s.
        asio::co_spawn(context, serve_accepted(std::move(socket), frontend_, context.get_executor(), tls_),
                       asio::detached);
    }
}

void HttpListener::load_tls() {
    if (options_.tls_certificate_file.empty() && options_.tls_private_key_file.empty()) return;
    if (options_.tls_certificate_file.empty() || options_.tls_private_key_file.empty())
        throw std::invalid_argument("TLS needs both a certificate (--tls-cert) and its private key (--tls-key)");
    tls_ = make_server_tls_context(options_.tls_certificate_file, options_.tls_private_key_file);
}

void HttpListener::reload_tls() {
    auto previous = tls_;
    try {
        load_tls();
    } catch (...) {
        tls_ = previous;
        throw;
    }
}

void HttpListener::stop_threads() {
    for (auto& guard : guards_) guard.reset();
    for (auto& context : extra_contexts_) context->stop();
    for (auto& thread : threads_)
        if (thread.joinable()) thread.join();
    threads_.clear();
}

void HttpListener::stop(std::function<void()> done) {
    asio::post(io_, [self = shared_from_this(), done = std::move(done)]() mutable {
        if (self->stopping_) return;
        self->stopping_ = true;
        asio::co_spawn(self->io_, self->shut_down(std::move(done)), asio::detached);
    });
}

asio::awaitable<void> HttpListener::shut_down(std::function<void()> done) {
    auto self = shared_from_this();
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    if (!frontend_) {  // never started
        if (done) done();
        co_return;
    }
    frontend_->stopping = true;
    // Calls in flight get the grace period to finish; what is left then is answered with an
    // error by the endpoint, never left hanging on a stream that just ends.
    asio::steady_timer wait(io_);
    auto wait_while = [&](auto busy, std::chrono::steady_clock::duration limit) -> asio::awaitable<void> {
        auto deadline = std::chrono::steady_clock::now() + limit;
        while (busy() && std::chrono::steady_clock::now() < deadline) {
            wait.expires_after(std::chrono::milliseconds(10));
            co_await wait.async_wait(asio::as_tuple(asio::use_awaitable));
        }
    };
    if (auto endpoint = frontend_->endpoint) {
        co_await wait_while([&] { return endpoint->requests_in_flight(); }, options_.shutdown_grace);
        endpoint->shutdown();
    }
    // Answers already on their way get written; idle keep-alive connections are closed (on their
    // own threads: the wait lets that happen before the threads stop).
    frontend_->close_idle_connections();
    co_await wait_while([&] { return frontend_->requests_in_progress > 0 || frontend_->serving(); },
                        std::min<std::chrono::steady_clock::duration>(options_.shutdown_grace, std::chrono::seconds(1)));
    stop_threads();
    if (done) done();
}

}  // namespace mcp::http
