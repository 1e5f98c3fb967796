// StreamableHttpServer: the listening socket, the HTTP threads, and an orderly shutdown.

#include "mcp/transport/StreamableHttpServer.hpp"

#include "transport/http/HttpConnection.hpp"
#include "transport/http/TlsServer.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <optional>
#include <sched.h>
#include <stdexcept>
#include <thread>

namespace mcp {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {
/// The cores this process may run on: its affinity mask (taskset, a container's cpuset), which
/// can be fewer than the machine has. Threads beyond it only take turns on the same cores.
std::size_t usable_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<std::size_t>(CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}
}  // namespace

struct StreamableHttpServer::Impl : std::enable_shared_from_this<Impl> {
    Impl(Server& server, asio::io_context& io, StreamableHttpServerOptions options)
        : server(server), io(io), options(std::move(options)), acceptor(io) {}

    ~Impl() { stop_threads(); }

    asio::awaitable<void> accept_loop() {
        auto self = shared_from_this();
        std::size_t next = 0;
        for (;;) {
            // Connections are spread over the Server's thread and the HTTP threads.
            asio::io_context& context = next == 0 ? io : *extra_contexts[next - 1];
            next = (next + 1) % (extra_contexts.size() + 1);
            auto [ec, socket] = co_await acceptor.async_accept(context.get_executor(),
                                                               asio::as_tuple(asio::use_awaitable));
            if (ec == asio::error::operation_aborted || !acceptor.is_open()) break;
            if (ec) {
                // Out of descriptors, most likely: back off instead of spinning.
                if (options.log) options.log("accept failed: " + ec.message());
                asio::steady_timer pause(io, std::chrono::milliseconds(50));
                co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
                continue;
            }
            // The TLS handshake, if any, runs on the connection's thread, not the Server's.
            asio::co_spawn(context, serve_accepted(std::move(socket), frontend, context.get_executor(), tls),
                           asio::detached);
        }
    }

    static asio::awaitable<void> serve_accepted(tcp::socket socket, std::shared_ptr<http::Frontend> frontend,
                                                asio::io_context::executor_type executor,
                                                std::shared_ptr<asio::ssl::context> tls) {
        if (!tls) {
            co_await http::serve_http_connection(http::ServerStream(std::move(socket)), frontend, executor);
            co_return;
        }
        std::string error;
        auto secure = co_await http::tls_accept(std::move(socket), *tls, frontend->options.connection_idle_timeout, error);
        if (!secure) {
            if (frontend->options.log) frontend->options.log("TLS handshake failed: " + error);
            co_return;
        }
        co_await http::serve_http_connection(http::ServerStream(std::move(*secure)), frontend, executor);
    }

    void load_tls() {
        if (options.tls_certificate_file.empty() && options.tls_private_key_file.empty()) return;
        if (options.tls_certificate_file.empty() || options.tls_private_key_file.empty())
            throw std::invalid_argument("TLS needs both a certificate (--tls-cert) and its private key (--tls-key)");
        tls = http::make_server_tls_context(options.tls_certificate_file, options.tls_private_key_file);
    }

    void stop_threads() {
        for (auto& guard : guards) guard.reset();
        for (auto& context : extra_contexts) context->stop();
        for (auto& thread : threads)
            if (thread.joinable()) thread.join();
        threads.clear();
    }

    asio::awaitable<void> shut_down(std::function<void()> done) {
        auto self = shared_from_this();
        boost::system::error_code ignored;
        acceptor.close(ignored);
        frontend->stopping = true;
        // Calls in flight get the grace period to finish; what is left then is answered with an
        // error by the endpoint, never left hanging on a stream that just ends.
        asio::steady_timer wait(io);
        auto wait_while = [&](auto busy, std::chrono::steady_clock::duration limit) -> asio::awaitable<void> {
            auto deadline = std::chrono::steady_clock::now() + limit;
            while (busy() && std::chrono::steady_clock::now() < deadline) {
                wait.expires_after(std::chrono::milliseconds(10));
                co_await wait.async_wait(asio::as_tuple(asio::use_awaitable));
            }
        };
        co_await wait_while([&] { return frontend->endpoint->requests_in_flight(); }, options.shutdown_grace);
        frontend->endpoint->shutdown();
        // Answers already on their way get written; idle keep-alive connections are simply dropped.
        co_await wait_while([&] { return frontend->requests_in_progress > 0; },
                            std::min<std::chrono::steady_clock::duration>(options.shutdown_grace, std::chrono::seconds(1)));
        stop_threads();
        if (done) done();
    }

    Server& server;
    asio::io_context& io;
    StreamableHttpServerOptions options;
    tcp::acceptor acceptor;
    /// Read by the accept loop and replaced by reload_tls(), both on the Server's thread; each
    /// connection keeps the context it started with.
    std::shared_ptr<asio::ssl::context> tls;
    std::shared_ptr<http::Frontend> frontend;
    std::vector<std::unique_ptr<asio::io_context>> extra_contexts;
    std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
    std::vector<std::thread> threads;
    bool stopping = false;
};

StreamableHttpServer::StreamableHttpServer(Server& server, asio::io_context& io, StreamableHttpServerOptions options)
    : impl_(std::make_shared<Impl>(server, io, std::move(options))) {}

StreamableHttpServer::~StreamableHttpServer() { impl_->stop_threads(); }

void StreamableHttpServer::start() {
    auto& impl = *impl_;
    // Checked before binding: a malformed --allow-origin is a startup error, not a silent refusal.
    auto host_policy = HostPolicy::for_server(impl.options.host, impl.options.allowed_hosts, impl.options.allowed_origins,
                                              impl.options.only_listed_origins);
    impl.load_tls();
    tcp::resolver resolver(impl.io);
    auto endpoints = resolver.resolve(impl.options.host, std::to_string(impl.options.port),
                                      tcp::resolver::passive | tcp::resolver::numeric_service);
    tcp::endpoint endpoint = endpoints.begin()->endpoint();
    impl.acceptor.open(endpoint.protocol());
    impl.acceptor.set_option(asio::socket_base::reuse_address(true));
    impl.acceptor.bind(endpoint);
    impl.acceptor.listen(asio::socket_base::max_listen_connections);

    if (!impl.options.store) impl.options.store = make_memory_session_store();
    auto endpoint_logic = std::make_shared<http::McpEndpoint>(impl.server, impl.io, impl.options);
    endpoint_logic->start();
    impl.frontend = std::shared_ptr<http::Frontend>(new http::Frontend{
        impl.options,
        std::move(host_policy),
        impl.io.get_executor(), endpoint_logic, {}, {}});

    std::size_t extra = impl.options.http_threads.value_or(std::max<std::size_t>(1, usable_cores()) - 1);
    for (std::size_t i = 0; i < extra; ++i) {
        impl.extra_contexts.push_back(std::make_unique<asio::io_context>(1));
        impl.guards.push_back(asio::make_work_guard(*impl.extra_contexts.back()));
    }
    for (auto& context : impl.extra_contexts) impl.threads.emplace_back([&context] { context->run(); });
    asio::co_spawn(impl.io, impl_->accept_loop(), asio::detached);
}

std::uint16_t StreamableHttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }

void StreamableHttpServer::reload_tls() {
    auto previous = impl_->tls;
    try {
        impl_->load_tls();
    } catch (...) {
        impl_->tls = previous;
        throw;
    }
}

void StreamableHttpServer::stop(std::function<void()> done) {
    asio::post(impl_->io, [impl = impl_, done = std::move(done)]() mutable {
        if (impl->stopping) return;
        impl->stopping = true;
        asio::co_spawn(impl->io, impl->shut_down(std::move(done)), asio::detached);
    });
}

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
