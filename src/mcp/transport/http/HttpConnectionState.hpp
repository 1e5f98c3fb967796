#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// One HTTP connection of the server: HttpConnection.cpp reads and answers its requests,
// HttpConnectionResponses.cpp writes what goes back (heads, JSON bodies, SSE streams) and
// watches for a client that leaves while it waits.

#include "transport/http/HttpConnection.hpp"
#include "transport/http/HttpRequestParser.hpp"
#include "transport/http/IncomingHeaders.hpp"
#include "transport/http/ResponseStream.hpp"

#include "mcp/jsonrpc/Codec.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/status.hpp>

#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::http {
namespace asio = boost::asio;
namespace web = boost::beast::http;

/// The state of one connection, shared by the helpers below.
class ConnectionState : public IdleConnection, public std::enable_shared_from_this<ConnectionState> {
public:
    static constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
    /// The most one write call hands the socket: the stall clock restarts after each.
    static constexpr std::size_t write_slice = std::size_t{1} << 20;
    /// How long a request may take before the connection starts watching for the client leaving.
    static constexpr std::chrono::milliseconds quick_answer{20};
    /// Request heads larger than this are refused (431).
    static constexpr std::size_t max_head_bytes = 64 * 1024;
    /// The read buffer starts at this size, and returns to it after a large request.
    static constexpr std::size_t initial_buffer_bytes = 4096;

    ConnectionState(ServerStream stream, std::shared_ptr<Frontend> frontend, asio::io_context::executor_type executor)
        : stream_(std::move(stream)),
          frontend_(std::move(frontend)),
          executor_(executor),
          idle_timer_(executor),
          parser_(max_head_bytes, frontend_->options.max_body_bytes) {}

    asio::awaitable<void> run();
    void close_if_idle() override {
        asio::post(executor_, [weak = weak_from_this()] {
            auto self = weak.lock();
            boost::system::error_code ignored;
            // Its pending read ends, and run() with it.
            if (self && self->waiting_for_request_) self->stream_.lowest().close(ignored);
        });
    }

private:
    /// Reads until the parser has a whole request (or gives up); the request stays in buffer_.
    asio::awaitable<HttpRequestParser::Status> read_request();
    /// Drops the request just handled from buffer_, keeping any pipelined bytes after it.
    void consume_request();
    /// Closes a connection that waits too long for a request. One timer per connection, re-armed
    /// only when it fires: resetting a deadline on every request would cost more than the request.
    void watch_idle_time(std::chrono::steady_clock::duration wait);

    /// Handles one request; returns whether the connection may carry another.
    asio::awaitable<bool> handle(const HttpRequest& request);
    // The EndpointRequest lives in handle()'s frame, which awaits these: passed by reference, it is built in place.
    asio::awaitable<bool> handle_post(const HttpRequest& request, const IncomingHeaders& headers,
                                      EndpointRequest& endpoint_request, bool keep_alive);
    asio::awaitable<bool> send_to_endpoint(EndpointRequest& endpoint_request, bool keep_alive);
    asio::awaitable<bool> write_stream(ResponseStream& http, ResponseStream::Update update, bool keep_alive);
    /// A request for one of the application's routes (StreamableHttpServerOptions::routes).
    asio::awaitable<bool> answer_route(const HttpRequest& request, std::string_view path, bool keep_alive);
    /// The status line, Content-Type (for a body) and Content-Length of a response head, in head_ …
    void start_head(web::status status, std::string_view content_type, std::size_t content_length);
    /// … and its end: the Connection header the version needs, and the blank line.
    void end_head(bool keep_alive);
    asio::awaitable<bool> respond(web::status status, std::string body, bool keep_alive, std::string_view session_id = {},
                                  std::string_view allow = {}, std::string_view www_authenticate = {});
    /// A CORS preflight from a page the policy accepts (or from no page at all).
    asio::awaitable<bool> answer_preflight(const IncomingHeaders& headers, bool keep_alive);
    /// Lets a browser page read the answer, when the request came from one the policy accepts.
    void add_cors_headers(std::string& head) const;
    /// Writes all of `buffers` on the connection, plain or TLS, a slice at a time. watch_idle_time
    /// closes a connection whose write moved no slice within connection_idle_timeout: a client that
    /// stops reading would otherwise hold it, and what is queued for it, for ever; one that reads
    /// slowly keeps it.
    template <class Buffers>
    asio::awaitable<std::tuple<boost::system::error_code, std::size_t>> write(const Buffers& buffers) {
        writing_ = true;
        auto progressed = [this](const boost::system::error_code& ec, std::size_t) -> std::size_t {
            writing_since_ = std::chrono::steady_clock::now();
            return ec ? 0 : write_slice;
        };
        auto result = co_await stream_.with(
            [&](auto& stream) { return asio::async_write(stream, buffers, progressed, use_tuple); });
        writing_ = false;
        co_return result;
    }
    void watch_for_departure(const std::shared_ptr<ResponseStream>& http);
    void stop_watching();
    void report_departure(const std::shared_ptr<ResponseStream>& http);

    ServerStream stream_;
    std::shared_ptr<Frontend> frontend_;
    asio::io_context::executor_type executor_;
    asio::steady_timer idle_timer_;
    HttpRequestParser parser_;
    std::string buffer_ = std::string(initial_buffer_bytes, '\0');
    std::size_t buffered_ = 0;  ///< bytes of buffer_ read and not yet consumed
    bool waiting_for_request_ = false;
    std::chrono::steady_clock::time_point waiting_since_;
    bool writing_ = false;
    std::chrono::steady_clock::time_point writing_since_;
    jsonrpc::Decoder decoder_;
    unsigned version_ = 11;
    std::string head_;  ///< response head, reused across requests
    std::string cors_origin_;  ///< the accepted Origin of the request being answered, if any
    bool watching_ = false;
};

}  // namespace mcp::http
