#pragma once
// Newline-delimited JSON over a pair of file descriptors: the framing of MCP's stdio transport.
// Used for our own stdin/stdout (a server) and for a child's pipes (a client).
//
// Reads split the byte stream on '\n' (a trailing '\r' is dropped); a frame longer than the limit
// is skipped up to its newline and reported once, so one oversized message costs nothing else.
// Writes are queued and coalesced: many small frames leave in one write(2).

#include "mcp/Export.hpp"
#include "mcp/transport/Transport.hpp"

#include <boost/asio/posix/stream_descriptor.hpp>

#include <chrono>
#include <functional>
#include <memory>

namespace mcp {

/// Limits and tuning of a StreamTransport.
struct MCP_API StreamTransportOptions {
    /// Longest frame accepted, in bytes. Default 16 MiB.
    std::size_t max_message_size = 16u << 20;
    /// Adaptive polling: while the peer is in a quick back-and-forth (its last message came less
    /// than a millisecond after our reply), look for its next message this long before going to
    /// sleep in the event loop. Sleeping and being woken costs several microseconds per message;
    /// an idle peer costs at most this much CPU once. Zero turns it off.
    std::chrono::microseconds poll_before_wait{50};
    /// Frames queued for a peer that does not read them, past which the peer is taken to be stuck:
    /// the queue is dropped, the write error handler is told (no_buffer_space) and the transport
    /// closes. Default 256 MiB.
    std::size_t max_unsent_bytes = std::size_t{256} << 20;
};

/// Newline-delimited JSON over a pair of file descriptors, the framing of MCP's stdio transport.
/// Writes are queued and coalesced; a frame longer than the limit is skipped and reported once.
class MCP_API StreamTransport : public Transport, public std::enable_shared_from_this<StreamTransport> {
public:
    /// Takes ownership of both descriptors (they are closed by close() or the destructor).
    /// Descriptors that cannot be polled (regular files) are used with blocking I/O.
    StreamTransport(boost::asio::any_io_executor executor, int read_fd, int write_fd,
                    StreamTransportOptions options = {});
    /// Closes both descriptors.
    ~StreamTransport() override;

    /// The next line, without its newline or a trailing carriage return; a line longer than
    /// max_message_size is skipped and reported as `oversized`.
    boost::asio::awaitable<jsonrpc::ChannelRead> read() override;
    /// Queues `frame` and a newline; `context` means nothing to a byte stream. Frames queued while
    /// read() hands out buffered input leave together, in one write.
    void send(std::string_view frame, jsonrpc::FrameInfo context = {}) override;
    /// Stops reading and closes the writing side once what is queued has been written.
    void close() override;
    boost::asio::any_io_executor executor() const override { return executor_; }

    /// Called once if writing fails (the peer went away); sending stops then.
    void on_write_error(std::function<void(const boost::system::error_code&)> callback) {
        on_write_error_ = std::move(callback);
    }
    /// True when nothing queued is waiting to be written.
    bool idle() const { return !writing_ && !flush_posted_ && outgoing_.empty(); }
    /// Closes only the writing side (EOF for the peer), keeping the reading side open.
    void close_write();

private:
    boost::asio::awaitable<std::size_t> read_some(char* data, std::size_t size, boost::system::error_code& ec);
    /// Polls for input without sleeping, for at most options_.poll_before_wait; returns bytes read.
    std::size_t poll_for_input(char* data, std::size_t size);
    boost::asio::awaitable<void> write_loop();
    void flush();
    void write_blocking();

    boost::asio::any_io_executor executor_;
    StreamTransportOptions options_;
    boost::asio::posix::stream_descriptor in_;
    boost::asio::posix::stream_descriptor out_;
    int in_fd_blocking_ = -1;   ///< set when the read side is a regular file
    int out_fd_blocking_ = -1;  ///< set when the write side is a regular file
    std::string buffer_;
    std::size_t begin_ = 0;  ///< start of unread data in buffer_
    std::size_t end_ = 0;    ///< end of valid data in buffer_
    std::size_t scanned_ = 0;  ///< bytes after begin_ already searched for '\n'
    bool discarding_ = false;
    std::size_t discarded_ = 0;
    bool read_eof_ = false;
    std::string outgoing_;
    std::string in_flight_;
    bool writing_ = false;       ///< an asynchronous write is in flight
    bool flush_posted_ = false;  ///< a flush is queued on the executor
    bool handing_out_frames_ = false;  ///< read() is returning buffered frames; it flushes before it waits
    std::chrono::steady_clock::time_point last_flush_{};  ///< when our last output left
    bool peer_is_quick_ = false;  ///< the peer's last message followed our last output closely
    bool write_failed_ = false;
    bool closing_ = false;
    bool closed_ = false;
    std::function<void(const boost::system::error_code&)> on_write_error_;
};

}  // namespace mcp
