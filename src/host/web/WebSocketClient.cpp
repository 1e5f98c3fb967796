#include "host/web/WebSocketClient.hpp"

#include "host/web/PageFrames.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <span>
#include <utility>

namespace mcpkit::host {
namespace asio = boost::asio;
using websocket::FrameEvent;
using websocket::Opcode;

namespace {

std::shared_ptr<const std::string> bytes_of(std::string text) {
    return std::make_shared<const std::string>(std::move(text));
}

/// Where reads land: one buffer for every page (a page waits for readability with none of its
/// own), taken by one read at a time.
struct ReadBuffer {
    static constexpr std::size_t size = 64 * 1024;
    std::unique_ptr<char[]> shared = std::make_unique<char[]>(size);
    bool in_use = false;
};
thread_local ReadBuffer read_buffer;
}  // namespace

WebSocketClient::WebSocketClient(asio::ip::tcp::socket socket, WebSocketLimits limits)
    : socket_(std::move(socket)), limits_(limits), reader_(limits.max_message_bytes) {}

void WebSocketClient::start(std::string_view early_bytes) {
    auto self = shared_from_this();
    boost::system::error_code ignored;
    socket_.non_blocking(true, ignored);
    state_ = State::open;
    heard_ = std::chrono::steady_clock::now();
    if (handler) handler->opened(self);
    if (!early_bytes.empty()) {
        // Read with the upgrade request: they go first, as if just read.
        std::string pending(early_bytes);
        auto on_event = [this](const FrameEvent& event) { handle(event); };
        std::size_t used = reader_.feed(std::span<char>(pending.data(), pending.size()), on_event);
        if (used < pending.size() && state_ != State::closed) partial_.assign(pending, used);
    }
    schedule_flush();
    wait_for_input();
}

void WebSocketClient::wait_for_input() {
    if (state_ == State::closed) {
        readable(asio::error::operation_aborted);
        return;
    }
    socket_.async_wait(asio::ip::tcp::socket::wait_read,
                       [self = shared_from_this()](const boost::system::error_code& error) { self->readable(error); });
}

void WebSocketClient::readable(const boost::system::error_code& error) {
    if (!error && read_available() && state_ != State::closed) {
        wait_for_input();
        return;
    }
    // The page is gone (or was sent away): the one place the handler hears of it.
    end();
    auto self = shared_from_this();
    if (auto* told = std::exchange(handler, nullptr)) told->closed(self);
}

/// Reads what has arrived and handles it; false once the connection is over.
bool WebSocketClient::read_available() {
    std::unique_ptr<char[]> own;
    char* buffer = read_buffer.shared.get();
    if (read_buffer.in_use) {
        own = std::make_unique<char[]>(ReadBuffer::size);  // only if a handler ever read re-entrantly
        buffer = own.get();
    }
    read_buffer.in_use = !own;
    struct Release {
        bool shared;
        ~Release() {
            if (shared) read_buffer.in_use = false;
        }
    } release{!own};
    auto on_event = [this](const FrameEvent& event) { handle(event); };
    while (state_ != State::closed) {
        boost::system::error_code ec;
        std::size_t n = socket_.read_some(asio::buffer(buffer, ReadBuffer::size), ec);
        if (ec == asio::error::would_block || ec == asio::error::try_again) return true;
        if (ec) return false;  // the page went away (end of file included)
        heard_ = std::chrono::steady_clock::now();
        pinged_ = false;
        if (partial_.empty()) {
            std::size_t used = reader_.feed(std::span<char>(buffer, n), on_event);
            if (used < n && state_ != State::closed) partial_.assign(buffer + used, n - used);
        } else {
            // Parsed from a local string: a handler may end the connection (and clear partial_)
            // while the reader still looks at these bytes.
            std::string pending = std::move(partial_);
            partial_ = {};
            pending.append(buffer, n);
            std::size_t used = reader_.feed(std::span<char>(pending.data(), pending.size()), on_event);
            pending.erase(0, used);
            if (state_ != State::closed && !pending.empty()) partial_ = std::move(pending);
        }
        // A short read took all there was (TCP hands over everything queued, up to the size
        // asked), so no read is spent learning it again; the wait that follows re-arms the socket
        // in epoll, which reports at once anything that came meanwhile.
        if (n < ReadBuffer::size) return true;
    }
    return false;
}

void WebSocketClient::handle(const FrameEvent& event) {
    if (state_ == State::closed) return;
    switch (event.kind) {
    case FrameEvent::Kind::text:
        if (handler && state_ == State::open) handler->received(shared_from_this(), event.payload);
        break;
    case FrameEvent::Kind::binary:
        // Binary frames mean nothing here; say so the way the protocol says it.
        send(PageFrames::error("frames must be JSON text, not binary"));
        break;
    case FrameEvent::Kind::ping:
        if (close_sent_) break;
        // Only the latest ping needs its pong (RFC 6455 §5.5.3): a page that pings faster than it
        // reads replaces the pong still waiting instead of queueing another.
        if (queue_.size() > in_flight_ && queue_.back().opcode == Opcode::pong) {
            queued_bytes_ -= weight(queue_.back());
            queue_.back().bytes = bytes_of(std::string(event.payload));
            queued_bytes_ += weight(queue_.back());
            break;
        }
        queue({bytes_of(std::string(event.payload)), Opcode::pong});
        break;
    case FrameEvent::Kind::pong: break;
    case FrameEvent::Kind::close:
        if (close_sent_) {
            // The page answered the host's close: the handshake is over.
            if (writing_ || !queue_.empty()) end_after_write_ = true;
            else end();
        } else {
            begin_close(event.code == 1005 ? 0 : event.code, {}, true);
        }
        break;
    case FrameEvent::Kind::failed:
        // Closed by the book (a close frame, then the rest read and dropped until the page's own
        // close frame), so the page learns why. After a protocol error nothing more can be read:
        // the connection ends once the close frame is out.
        begin_close(event.code, event.payload, event.code != websocket::too_big);
        break;
    }
}

void WebSocketClient::send(std::shared_ptr<const std::string> frame) {
    if (state_ == State::closed || close_sent_) return;
    queue({std::move(frame), Opcode::text});
}

void WebSocketClient::send_queued() {
    if (state_ == State::open && !writing_) flush();
}

void WebSocketClient::queue(Outgoing outgoing) {
    queued_bytes_ += weight(outgoing);
    queue_.push_back(std::move(outgoing));
    if (queued_bytes_ > limits_.max_queued_bytes) {
        // A page this far behind is gone in all but name; it reconnects and gets the history.
        close();
        return;
    }
    schedule_flush();
}

void WebSocketClient::schedule_flush() {
    if (flush_scheduled_ || writing_ || state_ == State::connecting || state_ == State::closed || queue_.empty()) return;
    // Written once the current handler is done, with whatever else it queues.
    flush_scheduled_ = true;
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->flush(); });
}

void WebSocketClient::flush() {
    flush_scheduled_ = false;
    if (writing_ || queue_.empty() || state_ == State::closed) return;
    in_flight_ = queue_.size();
    headers_.resize(in_flight_);
    buffers_.clear();
    buffers_.reserve(2 * in_flight_);
    for (std::size_t i = 0; i < in_flight_; ++i) {
        const auto& outgoing = queue_[i];
        std::size_t size = websocket::frame_header(outgoing.opcode, outgoing.bytes->size(), headers_[i].data());
        buffers_.emplace_back(headers_[i].data(), size);
        if (!outgoing.bytes->empty()) buffers_.emplace_back(outgoing.bytes->data(), outgoing.bytes->size());
    }
    writing_ = true;
    asio::async_write(socket_, std::span<const asio::const_buffer>(buffers_),
                      [self = shared_from_this()](const boost::system::error_code& error, std::size_t) {
                          self->written(error);
                      });
}

void WebSocketClient::written(const boost::system::error_code& error) {
    writing_ = false;
    if (error || state_ == State::closed) {
        end();
        queue_.clear();
        return;
    }
    for (std::size_t i = 0; i < in_flight_; ++i) queued_bytes_ -= weight(queue_[i]);
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(in_flight_));
    in_flight_ = 0;
    if (!queue_.empty()) {
        flush();  // what was queued during the write
        return;
    }
    if (end_after_write_) {
        end();
        return;
    }
    // An idle page holds no write state.
    queue_ = {};
    buffers_ = {};
    headers_ = {};
}

void WebSocketClient::begin_close(std::uint16_t code, std::string_view reason, bool then_end) {
    if (close_sent_ || state_ == State::closed) return;
    close_sent_ = true;
    state_ = State::closing;
    closing_since_ = std::chrono::steady_clock::now();
    reader_.drain();
    queue({bytes_of(code ? websocket::close_payload(code, reason) : std::string()), Opcode::close});
    if (then_end) end_after_write_ = true;
}

void WebSocketClient::heartbeat(std::chrono::steady_clock::time_point now) {
    if (state_ == State::closing && now - closing_since_ > std::chrono::seconds(5)) end();
    if (state_ != State::open) return;
    auto silent = now - heard_;
    if (silent >= limits_.idle_timeout) {
        end();  // the page stopped answering: its read loop ends and the handler hears of it
    } else if (silent >= limits_.idle_timeout / 2 && !pinged_) {
        pinged_ = true;
        queue({bytes_of({}), Opcode::ping});
    }
}

void WebSocketClient::close() { end(); }

void WebSocketClient::end() {
    if (state_ == State::closed) return;
    state_ = State::closed;
    if (!writing_) queue_.clear();  // else the write in progress still points into it
    queued_bytes_ = 0;
    partial_ = {};
    boost::system::error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
}

}  // namespace mcpkit::host
