#include "host/web/WebSocketClient.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;

namespace {
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
}

WebSocketClient::WebSocketClient(beast::tcp_stream stream, WebSocketLimits limits)
    : socket_(std::move(stream)), limits_(limits) {}

asio::awaitable<void> WebSocketClient::run(beast::http::request<beast::http::string_body> request) {
    auto self = shared_from_this();
    beast::get_lowest_layer(socket_).expires_never();
    websocket::stream_base::timeout timeout{};
    timeout.handshake_timeout = std::chrono::seconds(30);
    timeout.idle_timeout = limits_.idle_timeout;
    timeout.keep_alive_pings = true;
    socket_.set_option(timeout);
    // The limit is enforced below, where the page can be told why. Beast's own limit stays off: it
    // would also apply while the close handshake reads and drops the rest of an oversized message.
    socket_.read_message_max(0);
    socket_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& response) { response.set(beast::http::field::server, "mcpkit-host"); }));
    auto [accept_error] = co_await socket_.async_accept(request, use_tuple);
    request = {};  // its header fields are not needed again; an idle page keeps only what it must
    if (accept_error) co_return;
    open_ = true;
    if (handler) handler->opened(self);
    if (!queue_.empty() && !writing_) asio::co_spawn(socket_.get_executor(), write_queued(), asio::detached);
    beast::flat_buffer buffer;
    for (;;) {
        auto [ec, n] = co_await socket_.async_read_some(buffer, 64 * 1024, use_tuple);
        if (ec) break;
        if (buffer.size() > limits_.max_message_bytes) {
            // Closed by the book (a close frame, then the rest of the message read and dropped
            // until the page's own close frame), so the page learns why: 1009.
            websocket::close_reason reason(websocket::close_code::too_big, "messages are limited to 1 MiB");
            co_await socket_.async_close(reason, use_tuple);
            break;
        }
        if (!socket_.is_message_done()) continue;
        if (!socket_.got_text()) {
            // Binary frames mean nothing here; say so the way the protocol says it.
            std::string refusal = R"({"type":"error","payload":{"message":"frames must be JSON text, not binary"}})";
            send(std::make_shared<const std::string>(std::move(refusal)));
        } else if (handler) {
            std::string_view text(static_cast<const char*>(buffer.cdata().data()), buffer.size());
            handler->received(self, text);
        }
        buffer.consume(buffer.size());
        buffer.shrink_to_fit();  // an idle page holds no read buffer
    }
    open_ = false;
    closed_ = true;
    queue_.clear();
    if (handler) handler->closed(self);
    handler = nullptr;
}

void WebSocketClient::send(std::shared_ptr<const std::string> frame) {
    if (closed_) return;
    queued_bytes_ += frame->size();
    queue_.push_back(std::move(frame));
    if (queued_bytes_ > limits_.max_queued_bytes) {
        // A page this far behind is gone in all but name; it reconnects and gets the history.
        close();
        return;
    }
    if (open_ && !writing_) asio::co_spawn(socket_.get_executor(), write_queued(), asio::detached);
}

asio::awaitable<void> WebSocketClient::write_queued() {
    auto self = shared_from_this();
    writing_ = true;
    socket_.text(true);
    while (!queue_.empty() && open_) {
        auto frame = queue_.front();
        auto [ec, n] = co_await socket_.async_write(asio::buffer(*frame), use_tuple);
        if (queue_.empty()) break;  // closed meanwhile
        queued_bytes_ -= frame->size();
        queue_.erase(queue_.begin());
        if (ec) break;
    }
    writing_ = false;
    if (queue_.empty()) queue_.shrink_to_fit();
}

void WebSocketClient::close() {
    if (closed_) return;
    closed_ = true;
    queue_.clear();
    boost::system::error_code ignored;
    beast::get_lowest_layer(socket_).socket().close(ignored);
}

}  // namespace mcpkit::host
