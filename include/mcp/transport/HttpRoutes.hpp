#pragma once
// Other HTTP routes served on the Streamable HTTP server's port, beside the MCP endpoint: an
// application that needs a few endpoints of its own (a browser extension's channel, a health
// check) shares one port and one HTTP stack with MCP instead of running a second server.
//
// The server parses each request and, when `serves(path)` says so, hands it over instead of
// applying the MCP endpoint's rules: the routes check Host, Origin and methods themselves. The
// answer may come later, from any thread (a long poll), exactly once. An answer may also take the
// connection over once its head is written (a WebSocket after 101, an event stream after 200).
//
// mcp::HttpServer serves routes alone, with no MCP endpoint (an application's own pages).

#include "mcp/Export.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

/// One parsed HTTP request handed to HttpRoutes::handle.
struct MCP_API HttpRouteRequest {
    std::string method;  ///< "GET", "POST" …
    std::string path;    ///< the target without its query
    std::string query;   ///< after '?', without it
    /// Header fields in arrival order, names lower-cased.
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;  ///< The whole body, at most HttpRoutes::max_body_bytes for the path.

    /// The first field called `lower_case_name`, if any.
    std::optional<std::string_view> header(std::string_view lower_case_name) const;
};

/// A connection a route took over: its socket, and what the client sent after the request that
/// was read already (a WebSocket's first frames may have come with the upgrade request).
struct MCP_API TakenConnection {
    /// The connection's socket, now the route's to read, write and close.
    boost::asio::ip::tcp::socket socket;
    /// Bytes already read past the request, to be treated as the first the client sent.
    std::string early_bytes;
};

/// A route's answer: a whole response, or a head after which the route takes the connection over.
struct MCP_API HttpRouteResponse {
    int status = 200;  ///< The status code.
    std::string body;  ///< The body, sent with Content-Length (not with `take_over`).
    std::string content_type = "application/json";  ///< sent when the body is not empty
    /// Extra header fields (CORS, Allow …). No CR or LF in names or values.
    std::vector<std::pair<std::string, std::string>> headers;
    /// Set: once the head (the status and `headers`; no body, no Content-Length) is written, the
    /// connection is the route's, handed over on the connection's thread. A status other than 101
    /// gets "Connection: close" (the response ends when the route closes the socket). Plain
    /// connections only: over TLS the server answers 501 instead.
    std::function<void(TakenConnection)> take_over;
};

/// HTTP routes an application serves on libmcp's HTTP stack, beside the MCP endpoint
/// (StreamableHttpServerOptions::routes) or alone (HttpServer). The routes check Host, Origin and
/// methods themselves; each request is answered exactly once, possibly later and from any thread.
class MCP_API HttpRoutes {
public:
    virtual ~HttpRoutes() = default;
    /// Whether a request for `path` is theirs.
    virtual bool serves(std::string_view path) const = 0;
    /// The largest body accepted at `path`: a larger one is refused with 413. Every read is also
    /// bounded by StreamableHttpServerOptions::max_body_bytes, so set that to the largest of them.
    virtual std::size_t max_body_bytes(std::string_view path) const = 0;
    /// Serves one request, on one of the HTTP threads. Call `respond` once, now or later from
    /// any thread; the connection waits for it (a client that leaves meanwhile is not noticed).
    virtual void handle(HttpRouteRequest request, std::function<void(HttpRouteResponse)> respond) = 0;
};

}  // namespace mcp
