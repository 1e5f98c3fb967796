// Writing a connection's answers: response heads by hand, JSON bodies, SSE streams chunk by
// chunk, and noticing a client that closes while its answer is awaited.

#include "transport/http/HttpConnectionState.hpp"

#include "mcp/transport/SseWriter.hpp"

#include <boost/asio/post.hpp>

#include <cerrno>
#include <cstdio>
#include <sys/socket.h>

namespace mcp::http {
namespace asio = boost::asio;
namespace web = boost::beast::http;
using tcp = asio::ip::tcp;

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

}  // namespace mcp::http
