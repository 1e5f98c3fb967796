#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The one GET stream of the 2024-11-05 HTTP+SSE transport: its first event names the URL to POST
// messages to (`endpoint`), and every message from the server comes on it after that. Without
// this stream a legacy session is over.

#include "transport/http/HttpClientConnection.hpp"
#include "mcp/transport/SseParser.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string_view>

namespace mcp::http {

struct LegacySseHandlers {
    /// Every event but the endpoint.
    std::function<void(SseEvent&)> on_event;
    /// The stream ended or broke (after the endpoint came).
    std::function<void()> on_end;
    /// What was tolerated (an endpoint on another origin).
    std::function<void(std::string_view)> log;
};

/// Sends `request` (a GET of the server's SSE URL) and waits up to `timeout` for the endpoint
/// event. The endpoint, resolved against `base`, if it came and is on the same origin; the stream
/// then goes on being read in the background, handing its events to `handlers`. Nothing if the
/// server offers no such stream or named no usable endpoint in time (the stream is then closed).
boost::asio::awaitable<std::optional<HttpUrl>> open_legacy_sse_stream(
    ConnectionPool& pool, boost::beast::http::request<boost::beast::http::string_body> request, HttpUrl base,
    std::chrono::milliseconds timeout, LegacySseHandlers handlers);

}  // namespace mcp::http
