#pragma once
// A Server and a Client joined by in-memory transports, for tests of the two APIs together.

#include "TestSupport.hpp"
#include "mcp/Error.hpp"
#include "mcp/client/Client.hpp"
#include "mcp/server/Server.hpp"
#include "mcp/transport/MemoryTransport.hpp"

#include <boost/asio/detached.hpp>

namespace mcp::testing {

struct ServerClientFixture {
    boost::asio::io_context io;
    Server server;
    std::shared_ptr<Transport> client_side;
    std::shared_ptr<Transport> server_side;

    explicit ServerClientFixture(ServerOptions options = {}) : server(Implementation{"test-server", "1.2.3"}, std::move(options)) {
        auto [a, b] = make_memory_transports(io.get_executor());
        client_side = a;
        server_side = b;
    }

    /// Serves, connects a client with `options`, runs `body`, closes.
    template <class Body>
    void with_client(ClientOptions options, Body body) {
        boost::asio::co_spawn(io, server.serve(server_side), boost::asio::detached);
        run(io, [&]() -> boost::asio::awaitable<void> {
            Client client(options);
            co_await client.connect(client_side);
            co_await body(client);
            co_await client.close();
        });
    }
};

inline int error_code_of(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const Error& error) {
        return error.code();
    } catch (...) {
        return 0;
    }
}

}  // namespace mcp::testing
