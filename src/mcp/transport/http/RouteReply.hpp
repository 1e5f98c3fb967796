#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The answer of an application route (mcp/transport/HttpRoutes.hpp) on its way to the connection
// that waits for it. The route may answer from any thread, at once or much later (a long poll).

#include "mcp/transport/HttpRoutes.hpp"
#include "transport/http/HttpRequestParser.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <mutex>
#include <optional>

namespace mcp::http {

/// The routes' answer to `request` for `path`, waited for on the connection's thread (413 when the
/// body passes the path's limit, without asking them).
boost::asio::awaitable<HttpRouteResponse> ask_routes(HttpRoutes& routes, const HttpRequest& request,
                                                     std::string_view path,
                                                     boost::asio::io_context::executor_type connection_executor);

/// The head of a route's answer: the status line, `response.headers`, then Content-Type and
/// Content-Length for an ordinary answer, or "Connection: close" (not for 101) for one that takes
/// the connection over. `keep_alive` writes the Connection field the HTTP version needs.
std::string route_head(unsigned version, const HttpRouteResponse& response, bool keep_alive);

class RouteReply : public std::enable_shared_from_this<RouteReply> {
public:
    /// `connection_executor` runs on one thread: the connection's.
    explicit RouteReply(boost::asio::io_context::executor_type connection_executor);

    /// Hands the answer over; the first call wins.
    void deliver(HttpRouteResponse response);
    /// On the connection's thread: waits for the answer.
    boost::asio::awaitable<HttpRouteResponse> wait();

private:
    boost::asio::io_context::executor_type executor_;
    boost::asio::steady_timer timer_;  ///< touched only on the connection's thread
    std::mutex mutex_;
    std::optional<HttpRouteResponse> response_;
    bool delivered_ = false;
};

}  // namespace mcp::http
