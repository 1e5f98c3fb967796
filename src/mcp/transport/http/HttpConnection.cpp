#include "transport/http/HttpConnection.hpp"

#include "mcp/protocol/ErrorCodes.hpp"
#include "mcp/protocol/Versions.hpp"
#include "mcp/transport/SseWriter.hpp"
#include "transport/http/AsciiCase.hpp"
#include "transport/http/HttpErrors.hpp"
#include "transport/http/HttpRequestParser.hpp"
#include "transport/http/IncomingHeaders.hpp"
#include "transport/http/RouteReply.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/socket.h>

namespace mcp::http {
namespace asio = boost::asio;
namespace web = boost::beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
/// How long a request may take before the connection starts watching for the client leaving.
constexpr std::chrono::milliseconds quick_answer{20};
/// Request heads larger than this are refused (431).
constexpr std::size_t max_head_bytes = 64 * 1024;
/// The read buffer starts at this size, and returns to it after a large request.
constexpr std::size_t initial_buffer_bytes = 4096;

/// Header names a preflight may ask for: a comma-separated list of tokens, nothing else, so that
/// echoing it back cannot split the response head.
bool is_header_name_list(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
               c == ',' || c == ' ';
    });
}

/// The state of one connection, shared by the helpers below.
class ConnectionState : public IdleConnection, public std::enable_shared_from_this<ConnectionState> {
public:
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
    /// Writes all of `buffers` on the connection, plain or TLS. watch_idle_time closes a
    /// connection whose write has not finished within connection_idle_timeout: a client that
    /// stops reading would otherwise hold it, and what is queued for it, for ever.
    template <class Buffers>
    asio::awaitable<std::tuple<boost::system::error_code, std::size_t>> write(const Buffers& buffers) {
        writing_since_ = std::chrono::steady_clock::now();
        writing_ = true;
        auto result = co_await stream_.with([&](auto& stream) { return asio::async_write(stream, buffers, use_tuple); });
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

asio::awaitable<void> ConnectionState::run() {
    boost::system::error_code ignored;
    stream_.lowest().set_option(tcp::no_delay(true), ignored);
    watch_idle_time(frontend_->options.connection_idle_timeout);
    frontend_->keep(weak_from_this());
    for (;;) {
        auto status = co_await read_request();
        if (status == HttpRequestParser::Status::incomplete) break;  // the client left or idled out
        if (status == HttpRequestParser::Status::failed) {
            const auto& error = parser_.error();
            version_ = 11;
            cors_origin_.clear();
            co_await respond(static_cast<web::status>(error.status),
                             error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request, error.message), false);
            break;
        }
        const HttpRequest& request = parser_.request();
        version_ = request.version;
        ++frontend_->requests_in_progress;
        bool keep_alive = co_await handle(request);
        --frontend_->requests_in_progress;
        if (!keep_alive || frontend_->stopping) break;
        consume_request();
    }
    idle_timer_.cancel();
    stream_.lowest().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.lowest().close(ignored);
}

asio::awaitable<HttpRequestParser::Status> ConnectionState::read_request() {
    parser_.reset();
    waiting_for_request_ = true;
    waiting_since_ = std::chrono::steady_clock::now();
    for (;;) {
        // A client may send blank lines between requests; they are not part of the next one.
        std::size_t blank = 0;
        while (blank + 1 < buffered_ && buffer_[blank] == '\r' && buffer_[blank + 1] == '\n') blank += 2;
        if (blank > 0) {
            std::memmove(buffer_.data(), buffer_.data() + blank, buffered_ - blank);
            buffered_ -= blank;
        }
        if (buffered_ > 0) {
            auto status = parser_.parse(std::string_view(buffer_.data(), buffered_));
            if (status != HttpRequestParser::Status::incomplete) {
                waiting_for_request_ = false;
                co_return status;
            }
            if (parser_.wants_continue()) {
                parser_.continue_sent();
                constexpr std::string_view interim = "HTTP/1.1 100 Continue\r\n\r\n";
                auto [ec, n] = co_await write(asio::buffer(interim));
                if (ec) break;
            }
        }
        if (buffered_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);  // the parser bounds the growth
        auto space = asio::buffer(buffer_.data() + buffered_, buffer_.size() - buffered_);
        auto [ec, n] = co_await stream_.with([&](auto& stream) { return stream.async_read_some(space, use_tuple); });
        if (ec || n == 0) break;
        buffered_ += n;
    }
    waiting_for_request_ = false;
    co_return HttpRequestParser::Status::incomplete;
}

void ConnectionState::consume_request() {
    std::size_t used = parser_.consumed();
    std::size_t rest = buffered_ - used;
    if (rest > 0) std::memmove(buffer_.data(), buffer_.data() + used, rest);
    buffered_ = rest;
    if (buffer_.size() > initial_buffer_bytes && rest <= initial_buffer_bytes) {
        buffer_.resize(initial_buffer_bytes);
        buffer_.shrink_to_fit();
    }
    parser_.reset();
}

void ConnectionState::watch_idle_time(std::chrono::steady_clock::duration wait) {
    idle_timer_.expires_after(wait);
    idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (ec || !self->stream_.lowest().is_open()) return;
        auto limit = std::chrono::steady_clock::duration(self->frontend_->options.connection_idle_timeout);
        auto now = std::chrono::steady_clock::now();
        auto waited = now - self->waiting_since_;
        auto stalled = now - self->writing_since_;
        if ((self->waiting_for_request_ && waited >= limit) || (self->writing_ && stalled >= limit)) {
            boost::system::error_code ignored;
            self->stream_.lowest().close(ignored);  // the pending read or write ends, and with it the connection
            return;
        }
        self->watch_idle_time(self->waiting_for_request_ ? limit - waited : self->writing_ ? limit - stalled : limit);
    });
}

asio::awaitable<bool> ConnectionState::handle(const HttpRequest& request) {
    cors_origin_.clear();
    bool keep_alive = request.keep_alive;
    std::string_view target = request.target;
    if (auto query = target.find('?'); query != std::string_view::npos) target = target.substr(0, query);
    if (auto* routes = frontend_->options.routes.get(); routes && routes->serves(target))
        co_return co_await answer_route(request, target, keep_alive);
    if (!frontend_->endpoint) {  // an HttpServer: its routes are all there is
        std::string body = boost::json::serialize(boost::json::object{{"error", "nothing at " + std::string(target)}});
        co_return co_await respond(web::status::not_found, std::move(body), keep_alive);
    }
    auto* authorizer = frontend_->options.authorization.get();
    if (authorizer && (request.method == "GET" || request.method == "HEAD"))
        if (auto document = authorizer->document(target))  // protected resource metadata: public
            co_return co_await respond(web::status::ok, std::move(*document), keep_alive);
    if (target != frontend_->options.path)
        co_return co_await respond(web::status::not_found,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "No MCP endpoint at " + std::string(target) + "; it is at " +
                                                  frontend_->options.path),
                                   keep_alive);
    auto headers = read_headers(request);
    if (auto problem = frontend_->host_policy.check(headers.host.value_or(""), headers.origin)) {
        if (frontend_->options.log) frontend_->options.log(*problem);
        co_return co_await respond(web::status::forbidden,
                                   error_body(jsonrpc::RequestId(), -32000, *problem), keep_alive);
    }
    if (headers.origin) cors_origin_.assign(*headers.origin);
    if (request.method == "OPTIONS") co_return co_await answer_preflight(headers, keep_alive);
    EndpointRequest endpoint_request;
    if (authorizer) {
        auto verdict = co_await authorizer->authorize(std::string(headers.authorization.value_or("")));
        if (verdict.status != 0)
            co_return co_await respond(static_cast<web::status>(verdict.status), std::move(verdict.body), keep_alive, {},
                                       {}, verdict.www_authenticate);
        endpoint_request.origin = std::move(verdict.origin);
    }
    endpoint_request.session_id = std::string(headers.session_id.value_or(""));
    endpoint_request.version_header = std::string(trim_ows(headers.protocol_version.value_or("")));
    if (request.method == "POST") co_return co_await handle_post(request, headers, endpoint_request, keep_alive);
    if (request.method == "GET") {
        auto accept = headers.accept.value_or("");
        if (!contains_case_insensitive(accept, "text/event-stream") && !contains_case_insensitive(accept, "*/*"))
            co_return co_await respond(web::status::not_acceptable,
                                       error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                                  "GET opens an SSE stream: Accept must include text/event-stream"),
                                       keep_alive);
        endpoint_request.verb = EndpointRequest::Verb::get;
        endpoint_request.last_event_id = std::string(trim_ows(headers.last_event_id.value_or("")));
        co_return co_await send_to_endpoint(endpoint_request, keep_alive);
    }
    if (request.method == "DELETE") {
        endpoint_request.verb = EndpointRequest::Verb::remove;
        co_return co_await send_to_endpoint(endpoint_request, keep_alive);
    }
    co_return co_await respond(web::status::method_not_allowed,
                               error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                          "Use POST to send messages, GET to listen, DELETE to end a session"),
                               keep_alive, {}, "GET, POST, DELETE, OPTIONS");
}

asio::awaitable<bool> ConnectionState::answer_route(const HttpRequest& request, std::string_view path,
                                                   bool keep_alive) {
    HttpRouteResponse response = co_await ask_routes(*frontend_->options.routes, request, path, executor_);
    tcp::socket* socket = stream_.plain();
    if (response.take_over && !socket)
        response = HttpRouteResponse{501, R"({"error":"this answer takes the connection over, which only plain HTTP allows"})"};
    head_ = route_head(version_, response, keep_alive);
    if (response.take_over) {
        auto [ec, bytes] = co_await write(asio::buffer(head_));
        if (ec) co_return false;
        // The route owns the socket from here; run() finds it moved out and closes nothing.
        std::size_t used = parser_.consumed();
        TakenConnection taken{std::move(*socket), std::string(buffer_.data() + used, buffered_ - used)};
        buffered_ = used;
        try {
            response.take_over(std::move(taken));
        } catch (const std::exception& e) {  // the socket went with it, and is closed
            if (frontend_->options.log) frontend_->options.log(std::string("a route taking a connection failed: ") + e.what());
        }
        co_return false;
    }
    bool with_body = request.method != "HEAD";
    std::array<asio::const_buffer, 2> buffers{asio::buffer(head_), asio::buffer(response.body.data(),
                                                                                 with_body ? response.body.size() : 0)};
    auto [ec, bytes] = co_await write(buffers);
    co_return keep_alive && !ec;
}

asio::awaitable<bool> ConnectionState::answer_preflight(const IncomingHeaders& headers, bool keep_alive) {
    head_.assign(version_ == 10 ? "HTTP/1.0 204 No Content\r\n" : "HTTP/1.1 204 No Content\r\n");
    head_.append("Allow: GET, POST, DELETE, OPTIONS\r\n");
    if (!cors_origin_.empty()) {
        add_cors_headers(head_);
        head_.append("Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS\r\n");
        // The page is trusted by now; it may send the MCP headers and any Mcp-Param-* it needs.
        auto requested = trim_ows(headers.cors_request_headers.value_or(""));
        if (!requested.empty() && is_header_name_list(requested))
            head_.append("Access-Control-Allow-Headers: ").append(requested).append("\r\n");
        head_.append("Access-Control-Max-Age: 600\r\n");
    }
    if (!keep_alive && version_ != 10) head_.append("Connection: close\r\n");
    if (keep_alive && version_ == 10) head_.append("Connection: keep-alive\r\n");
    head_.append("\r\n");
    auto [ec, bytes] = co_await write(asio::buffer(head_));
    co_return keep_alive && !ec;
}

void ConnectionState::add_cors_headers(std::string& head) const {
    if (cors_origin_.empty()) return;
    head.append("Access-Control-Allow-Origin: ").append(cors_origin_).append("\r\n");
    head.append("Access-Control-Expose-Headers: Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate\r\nVary: Origin\r\n");
}

asio::awaitable<bool> ConnectionState::handle_post(const HttpRequest& request, const IncomingHeaders& headers,
                                                   EndpointRequest& endpoint_request, bool keep_alive) {
    auto content_type = headers.content_type.value_or("");
    if (!contains_case_insensitive(content_type, "application/json"))
        co_return co_await respond(web::status::unsupported_media_type,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "Content-Type must be application/json"),
                                   keep_alive);
    auto accept = headers.accept.value_or("");
    bool any = contains_case_insensitive(accept, "*/*");
    bool accepts_json = any || contains_case_insensitive(accept, "application/json");
    bool accepts_sse = any || contains_case_insensitive(accept, "text/event-stream");
    if (!accepts_json || !accepts_sse)
        co_return co_await respond(web::status::not_acceptable,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "Accept must list both application/json and text/event-stream"),
                                   keep_alive);

    endpoint_request.verb = EndpointRequest::Verb::post;
    endpoint_request.accepts_sse = accepts_sse;
    auto version_header = headers.protocol_version;  // absent and empty differ here
    endpoint_request.messages = decoder_.decode(request.body);
    auto& messages = endpoint_request.messages;
    if (!messages.is_batch) {
        if (auto* error = std::get_if<jsonrpc::DecodeError>(&messages.single))
            co_return co_await respond(web::status::bad_request,
                                       error_body(error->id, error->error.code, error->error.message, error->error.data),
                                       keep_alive);
    }
    auto meta_version = meta_protocol_version(messages);
    endpoint_request.modern = !messages.is_batch &&
                              is_modern_request(!endpoint_request.session_id.empty(), endpoint_request.version_header,
                                                meta_version.has_value());
    if (endpoint_request.modern) {
        if (auto problem = check_standard_headers(messages, version_header, headers.mcp_method, headers.mcp_name)) {
            // The id of a request, else null (a notification or response has none). Not a
            // conditional expression with a temporary: g++ 12 miscompiles that in a coroutine
            // (it copied a RequestId that was never made, and the server died on any notification).
            jsonrpc::RequestId id;
            if (const jsonrpc::Request* call = single_request(messages)) id = call->id;
            std::string body = error_body(id, mcp::error_code::header_mismatch, problem->message);
            co_return co_await respond(web::status::bad_request, std::move(body), keep_alive);
        }
        if (single_method(messages) == "tools/call") {
            for (const auto& [name, value] : headers.parameters)
                endpoint_request.parameter_headers.push_back(ParameterHeader{std::string(name), std::string(value)});
        }
    } else if (!endpoint_request.version_header.empty() && !versions::is_supported(endpoint_request.version_header)) {
        co_return co_await respond(web::status::bad_request,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "Unsupported MCP-Protocol-Version \"" + endpoint_request.version_header +
                                                  "\"; supported: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, "
                                                  "2026-07-28"),
                                   keep_alive);
    }
    if (!endpoint_request.modern) endpoint_request.body.assign(request.body);  // kept for stream takeover
    co_return co_await send_to_endpoint(endpoint_request, keep_alive);
}

asio::awaitable<bool> ConnectionState::send_to_endpoint(EndpointRequest& endpoint_request, bool keep_alive) {
    auto http = std::make_shared<ResponseStream>(executor_);
    endpoint_request.http = http;
    if (frontend_->server_executor.running_in_this_thread()) {
        // One thread serves both sides (--http-threads 0): no hop to make.
        frontend_->endpoint->handle(endpoint_request);
    } else {
        // Boxed: the request is large, and moving it through the post costs more than one allocation.
        asio::post(frontend_->server_executor, [endpoint = frontend_->endpoint,
                                                request = std::make_unique<EndpointRequest>(std::move(endpoint_request))] {
            endpoint->handle(*request);
        });
    }
    auto update = co_await http->next(quick_answer);
    while (update.timed_out) {
        // A slow answer: notice if the client gives up meanwhile (2026 clients cancel that way).
        watch_for_departure(http);
        update = co_await http->next(frontend_->options.sse_keepalive);
    }
    if (http->client_gone()) {
        stop_watching();
        report_departure(http);
        co_return false;
    }
    co_return co_await write_stream(*http, std::move(update), keep_alive);
}

asio::awaitable<bool> ConnectionState::write_stream(ResponseStream& http, ResponseStream::Update update, bool keep_alive) {
    auto self_http = http.shared_from_this();
    if (update.kind == ResponseStream::Kind::json) {
        stop_watching();
        co_return co_await respond(static_cast<web::status>(update.status), std::move(update.body), keep_alive,
                                   update.session_id, {}, update.www_authenticate);
    }
    // An SSE stream: a head without length, then each update as one chunk (HTTP/1.1) or raw
    // bytes up to the close (HTTP/1.0, which has no chunks).
    bool chunked = version_ != 10;
    if (!chunked) keep_alive = false;
    head_.assign(chunked ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.0 200 OK\r\n");
    head_.append("Content-Type: text/event-stream\r\nCache-Control: no-cache, no-transform\r\nX-Accel-Buffering: no\r\n");
    if (!update.session_id.empty()) head_.append("Mcp-Session-Id: ").append(update.session_id).append("\r\n");
    add_cors_headers(head_);
    if (chunked) head_.append("Transfer-Encoding: chunked\r\n");
    if (!keep_alive && chunked) head_.append("Connection: close\r\n");
    head_.append("\r\n");
    auto [head_error, head_bytes] = co_await write(asio::buffer(head_));
    bool ok = !head_error;
    char size_line[24];
    while (ok) {
        if (!update.body.empty()) {
            int length = chunked ? std::snprintf(size_line, sizeof size_line, "%zx\r\n", update.body.size()) : 0;
            std::array<asio::const_buffer, 3> chunk{asio::buffer(size_line, static_cast<std::size_t>(length)),
                                                    asio::buffer(update.body),
                                                    asio::buffer(chunked ? "\r\n" : "", chunked ? 2 : 0)};
            auto [ec, n] = co_await write(chunk);
            ok = !ec;
        }
        if (!ok || update.finished) break;
        watch_for_departure(self_http);
        update = co_await http.next(frontend_->options.sse_keepalive);
        if (update.timed_out) {
            update.body.clear();
            append_sse_comment(update.body);
        }
    }
    stop_watching();
    if (!ok || http.client_gone()) {
        http.mark_client_gone();
        report_departure(self_http);
        co_return false;
    }
    if (!chunked) co_return false;
    constexpr std::string_view last_chunk = "0\r\n\r\n";
    auto [end_error, end_bytes] = co_await write(asio::buffer(last_chunk));
    co_return keep_alive && !end_error;
}

// Heads are written by hand: Beast's generic serializer cost more than everything else in an echo call.
void ConnectionState::start_head(web::status status, std::string_view content_type, std::size_t content_length) {
    auto reason = web::obsolete_reason(status);
    head_.clear();
    head_.append(version_ == 10 ? "HTTP/1.0 " : "HTTP/1.1 ")
        .append(std::to_string(static_cast<unsigned>(status)))
        .append(" ")
        .append(reason.data(), reason.size())
        .append("\r\n");
    if (content_length > 0) head_.append("Content-Type: ").append(content_type).append("\r\n");
    head_.append("Content-Length: ").append(std::to_string(content_length)).append("\r\n");
}

void ConnectionState::end_head(bool keep_alive) {
    if (!keep_alive && version_ != 10) head_.append("Connection: close\r\n");
    if (keep_alive && version_ == 10) head_.append("Connection: keep-alive\r\n");
    head_.append("\r\n");
}

asio::awaitable<bool> ConnectionState::respond(web::status status, std::string body, bool keep_alive,
                                               std::string_view session_id, std::string_view allow,
                                               std::string_view www_authenticate) {
    start_head(status, "application/json", body.size());
    if (!session_id.empty()) head_.append("Mcp-Session-Id: ").append(session_id).append("\r\n");
    if (!allow.empty()) head_.append("Allow: ").append(allow).append("\r\n");
    if (!www_authenticate.empty()) head_.append("WWW-Authenticate: ").append(www_authenticate).append("\r\n");
    add_cors_headers(head_);
    end_head(keep_alive);
    std::array<asio::const_buffer, 2> buffers{asio::buffer(head_), asio::buffer(body)};
    auto [ec, bytes] = co_await write(buffers);
    co_return keep_alive && !ec;
}

void ConnectionState::watch_for_departure(const std::shared_ptr<ResponseStream>& http) {
    if (watching_) return;
    watching_ = true;
    int fd = stream_.lowest().native_handle();
    // Readable while we only write means the client closed (or sent the next request early).
    stream_.lowest().async_wait(tcp::socket::wait_read, [self = shared_from_this(), http, fd](const boost::system::error_code& ec) {
        if (ec) return;
        self->watching_ = false;
        char byte;
        ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) http->mark_client_gone();
    });
}

void ConnectionState::stop_watching() {
    if (!watching_) return;
    watching_ = false;
    boost::system::error_code ignored;
    stream_.lowest().cancel(ignored);
}

void ConnectionState::report_departure(const std::shared_ptr<ResponseStream>& http) {
    asio::post(frontend_->server_executor, [http] {
        if (http->on_client_gone) http->on_client_gone();
    });
}

}  // namespace

asio::awaitable<void> serve_http_connection(ServerStream stream, std::shared_ptr<Frontend> frontend,
                                            asio::io_context::executor_type executor) {
    auto state = std::make_shared<ConnectionState>(std::move(stream), std::move(frontend), executor);
    co_await state->run();
}

}  // namespace mcp::http
