// serve_stdio: the whole life of a stdio server process in one call.

#include "mcp/server/Server.hpp"
#include "mcp/transport/StreamTransport.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstdio>
#include <exception>
#include <unistd.h>

namespace mcp {
namespace asio = boost::asio;

int serve_stdio(Server& server) {
    asio::io_context io(1);
    return serve_stdio(server, io);
}

int serve_stdio(Server& server, asio::io_context& io, StreamTransportOptions stream) {
    // The transport owns the descriptors; give it duplicates so std streams stay valid.
    std::size_t stream_limit_mib = stream.max_unsent_bytes >> 20;
    auto transport = std::make_shared<StreamTransport>(io.get_executor(), ::dup(STDIN_FILENO), ::dup(STDOUT_FILENO),
                                                       stream);
    int exit_code = 0;
    transport->on_write_error([&exit_code, stream_limit_mib](const boost::system::error_code& ec) {
        // A client gone (EPIPE) ends the session as its closed input does, quietly.
        if (ec != asio::error::no_buffer_space) return;
        std::fprintf(stderr, "mcpkit: the client stopped reading our output (%zu MiB waiting); closing\n",
                     stream_limit_mib);
        exit_code = 1;
    });
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code& ec, int) {
        if (!ec) transport->close();
    });
    auto serve_then_stop = [&]() -> asio::awaitable<void> {
        try {
            co_await server.serve(transport);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "mcpkit: server stopped: %s\n", e.what());
            exit_code = 1;
        }
        signals.cancel();
        // Let the last replies leave, then stop timers the application may still have running.
        asio::steady_timer wait(io);
        for (int i = 0; i < 2000 && !transport->idle(); ++i) {
            wait.expires_after(std::chrono::milliseconds(1));
            co_await wait.async_wait(asio::use_awaitable);
        }
        io.stop();
    };
    asio::co_spawn(io, serve_then_stop(), asio::detached);
    io.run();
    return exit_code;
}

}  // namespace mcp
