#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// One TCP (or TLS) connection to the Streamable HTTP endpoint, on one of the HTTP threads: it reads
// requests (keep-alive), applies the rules that need only the request (path, Host/Origin,
// content types, the 2026-07-28 headers), decodes the JSON body, hands the request to the
// McpEndpoint on the Server's thread, and writes what comes back: a status, a JSON body, or an
// SSE stream.

#include "mcp/transport/HostPolicy.hpp"
#include "mcp/transport/StreamableHttpServer.hpp"
#include "transport/http/McpEndpoint.hpp"
#include "transport/http/RequestRules.hpp"
#include "transport/http/PlainOrTlsStream.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace mcp::http {

/// A connection that can be closed while it waits for a request (an idle keep-alive one).
class IdleConnection {
public:
    virtual ~IdleConnection() = default;
    /// Closes it if it is waiting for a request; from any thread.
    virtual void close_if_idle() = 0;
};

/// What every connection shares; read-only once serving, apart from the counters and the list.
struct Frontend {
    StreamableHttpServerOptions options;
    HostPolicy host_policy;
    boost::asio::io_context::executor_type server_executor;
    std::shared_ptr<McpEndpoint> endpoint;
    std::atomic<bool> stopping{false};
    std::atomic<std::size_t> requests_in_progress{0};
    std::mutex connections_mutex;
    std::vector<std::weak_ptr<IdleConnection>> connections;  ///< those being served (ended ones expire)

    /// Remembers a connection being served, for close_idle_connections().
    void keep(std::weak_ptr<IdleConnection> connection);
    /// On shutdown: closes every connection waiting for its next request.
    void close_idle_connections();
    /// Whether a connection is still being served (not ended, not taken over by a route).
    bool serving();
};

/// Serves one accepted connection (plain, or TLS after its handshake) until it ends.
boost::asio::awaitable<void> serve_http_connection(ServerStream stream, std::shared_ptr<Frontend> frontend,
                                                   boost::asio::io_context::executor_type executor);

}  // namespace mcp::http
