#include "mcp/transport/StreamTransport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace mcp {
namespace asio = boost::asio;

namespace {

constexpr std::size_t read_chunk = 64 * 1024;

// Assigns `fd` to `descriptor`, or returns false when the kernel cannot poll it (regular files).
bool try_assign(asio::posix::stream_descriptor& descriptor, int fd) {
    boost::system::error_code ec;
    descriptor.assign(fd, ec);
    if (!ec) return true;
    return false;
}

}  // namespace

StreamTransport::StreamTransport(asio::any_io_executor executor, int read_fd, int write_fd,
                                 StreamTransportOptions options)
    : executor_(std::move(executor)), options_(options), in_(executor_), out_(executor_) {
    // A peer that closes its end must surface as EPIPE on write, not kill the process.
    std::signal(SIGPIPE, SIG_IGN);
    if (read_fd >= 0 && !try_assign(in_, read_fd)) in_fd_blocking_ = read_fd;
    if (write_fd >= 0 && !try_assign(out_, write_fd)) out_fd_blocking_ = write_fd;
    if (out_.is_open()) {
        boost::system::error_code ignored;
        out_.non_blocking(true, ignored);  // flush() writes directly and must never block
    }
    if (in_.is_open()) {
        boost::system::error_code ignored;
        in_.non_blocking(true, ignored);  // poll_for_input() reads directly and must never block
    }
    buffer_.resize(read_chunk * 2);
}

StreamTransport::~StreamTransport() {
    boost::system::error_code ignored;
    in_.close(ignored);
    out_.close(ignored);
    if (in_fd_blocking_ >= 0) ::close(in_fd_blocking_);
    if (out_fd_blocking_ >= 0) ::close(out_fd_blocking_);
}

asio::awaitable<std::size_t> StreamTransport::read_some(char* data, std::size_t size,
                                                       boost::system::error_code& ec) {
    if (in_fd_blocking_ >= 0) {
        ssize_t n;
        do {
            n = ::read(in_fd_blocking_, data, size);
        } while (n < 0 && errno == EINTR);
        if (n == 0) ec = asio::error::eof;
        if (n < 0) ec = boost::system::error_code(errno, boost::system::system_category());
        co_return n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    if (!in_.is_open()) {
        ec = asio::error::eof;
        co_return 0;
    }
    auto [error, n] = co_await in_.async_read_some(asio::buffer(data, size), asio::as_tuple(asio::use_awaitable));
    ec = error;
    co_return n;
}

asio::awaitable<jsonrpc::ChannelRead> StreamTransport::read() {
    for (;;) {
        // Look for the end of the next frame in what is buffered.
        const char* base = buffer_.data() + begin_;
        std::size_t available = end_ - begin_;
        const void* newline = std::memchr(base + scanned_, '\n', available - scanned_);
        if (newline) {
            std::size_t length = static_cast<const char*>(newline) - base;
            std::size_t frame_length = length;
            if (frame_length > 0 && base[frame_length - 1] == '\r') --frame_length;
            begin_ += length + 1;
            scanned_ = 0;
            if (discarding_) {
                discarding_ = false;
                std::size_t size = discarded_ + length;
                discarded_ = 0;
                co_return jsonrpc::ChannelRead{jsonrpc::ChannelRead::Kind::oversized, {}, size, options_.max_message_size};
            }
            if (frame_length > options_.max_message_size)
                co_return jsonrpc::ChannelRead{jsonrpc::ChannelRead::Kind::oversized, {}, frame_length, options_.max_message_size};
            handing_out_frames_ = true;
            co_return jsonrpc::ChannelRead{jsonrpc::ChannelRead::Kind::message, std::string_view(base, frame_length), frame_length};
        }
        // Nothing complete is buffered: before waiting for input, send what the frames handed
        // out so far produced, all in one write.
        handing_out_frames_ = false;
        if (!outgoing_.empty()) flush();
        scanned_ = available;
        if (read_eof_ || closed_) {
            if (available > 0 && !discarding_) {
                // A last frame without its newline still counts.
                begin_ = end_;
                scanned_ = 0;
                co_return jsonrpc::ChannelRead{jsonrpc::ChannelRead::Kind::message, std::string_view(base, available), available};
            }
            co_return jsonrpc::ChannelRead{jsonrpc::ChannelRead::Kind::end_of_stream, {}, 0};
        }
        if (available > options_.max_message_size) {
            // Skip the rest of this frame without keeping it.
            discarding_ = true;
            discarded_ += available;
            begin_ = end_ = scanned_ = 0;
            available = 0;
        }
        // Make room: move the partial frame to the front, grow if it fills the buffer.
        if (begin_ > 0) {
            std::memmove(buffer_.data(), buffer_.data() + begin_, available);
            begin_ = 0;
            end_ = available;
        }
        if (buffer_.size() - end_ < read_chunk) buffer_.resize(std::max(buffer_.size() * 2, end_ + read_chunk));
        if (peer_is_quick_ && options_.poll_before_wait.count() > 0) {
            // Let work already queued (coroutine handlers, their replies) run first: polling
            // must never hold it back.
            co_await asio::post(executor_, asio::use_awaitable);
            if (!outgoing_.empty()) flush();  // their replies leave before we wait on the peer
            std::size_t polled = poll_for_input(buffer_.data() + end_, buffer_.size() - end_);
            if (polled > 0) {
                end_ += polled;
                continue;
            }
        }
        boost::system::error_code ec;
        std::size_t n = co_await read_some(buffer_.data() + end_, buffer_.size() - end_, ec);
        end_ += n;
        if (ec) read_eof_ = true;
        // A message that followed our output closely means a quick back-and-forth: poll next time.
        peer_is_quick_ = n > 0 && std::chrono::steady_clock::now() - last_flush_ < std::chrono::milliseconds(1);
    }
}

std::size_t StreamTransport::poll_for_input(char* data, std::size_t size) {
    if (options_.poll_before_wait.count() <= 0 || !peer_is_quick_ || !in_.is_open() || read_eof_) return 0;
    peer_is_quick_ = false;  // polled once per message; an idle peer lets the loop sleep after this
    auto deadline = std::chrono::steady_clock::now() + options_.poll_before_wait;
    do {
        ssize_t n = ::read(in_.native_handle(), data, size);
        if (n > 0) {
            peer_is_quick_ = true;
            return static_cast<std::size_t>(n);
        }
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return 0;  // the wait will see it
    } while (std::chrono::steady_clock::now() < deadline);
    return 0;
}

void StreamTransport::send(std::string_view frame, jsonrpc::FrameInfo) {
    if (closed_ || write_failed_) return;
    if (outgoing_.size() + in_flight_.size() + frame.size() > options_.max_unsent_bytes) {
        write_failed_ = true;
        outgoing_.clear();
        outgoing_.shrink_to_fit();
        if (on_write_error_) on_write_error_(asio::error::no_buffer_space);
        asio::post(executor_, [self = shared_from_this()] { self->close(); });
        return;
    }
    outgoing_.append(frame);
    outgoing_ += '\n';
    if (out_fd_blocking_ >= 0) {
        write_blocking();
        return;
    }
    // Replies produced by the same batch of input leave together: read() flushes before it
    // waits for more, and anything sent from elsewhere is flushed once its handler returns.
    if (writing_ || flush_posted_ || handing_out_frames_) return;
    flush_posted_ = true;
    asio::post(executor_, [self = shared_from_this()] { self->flush(); });
}

void StreamTransport::flush() {
    flush_posted_ = false;
    if (writing_ || write_failed_) return;
    if (!outgoing_.empty()) {
        // Most of the time the pipe has room: one write(2), no coroutine.
        boost::system::error_code ec;
        std::size_t written = out_.write_some(asio::buffer(outgoing_), ec);
        if (ec && ec != asio::error::would_block && ec != asio::error::try_again && ec != asio::error::interrupted) {
            write_failed_ = true;
            outgoing_.clear();
            if (on_write_error_) on_write_error_(ec);
            return;
        }
        outgoing_.erase(0, written);
        last_flush_ = std::chrono::steady_clock::now();
        if (!outgoing_.empty()) {
            writing_ = true;
            asio::co_spawn(executor_, write_loop(), asio::detached);
            return;
        }
    }
    if (closing_) close_write();
}

void StreamTransport::write_blocking() {
    std::size_t offset = 0;
    while (offset < outgoing_.size()) {
        ssize_t n = ::write(out_fd_blocking_, outgoing_.data() + offset, outgoing_.size() - offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            write_failed_ = true;
            if (on_write_error_) on_write_error_(boost::system::error_code(errno, boost::system::system_category()));
            break;
        }
        offset += static_cast<std::size_t>(n);
    }
    outgoing_.clear();
}

asio::awaitable<void> StreamTransport::write_loop() {
    auto self = shared_from_this();
    // Everything queued while a write is in flight leaves together in the next one.
    while (!outgoing_.empty() && !write_failed_) {
        in_flight_.swap(outgoing_);
        auto [ec, n] = co_await asio::async_write(out_, asio::buffer(in_flight_), asio::as_tuple(asio::use_awaitable));
        in_flight_.clear();
        if (ec) {
            write_failed_ = true;
            outgoing_.clear();
            if (on_write_error_) on_write_error_(ec);
        }
    }
    writing_ = false;
    if (closing_) {
        boost::system::error_code ignored;
        out_.close(ignored);
    }
}

void StreamTransport::close_write() {
    closing_ = true;
    if (!writing_ && !flush_posted_) {
        boost::system::error_code ignored;
        out_.close(ignored);
        if (out_fd_blocking_ >= 0) {
            ::close(out_fd_blocking_);
            out_fd_blocking_ = -1;
        }
    }
}

void StreamTransport::close() {
    if (closed_) return;
    closed_ = true;
    close_write();
    boost::system::error_code ignored;
    in_.cancel(ignored);
    in_.close(ignored);
}

}  // namespace mcp
