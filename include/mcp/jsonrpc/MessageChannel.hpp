#pragma once
// What the JSON-RPC engine needs from below: a channel that moves whole frames (text). The engine
// defines this interface and transports implement it, so jsonrpc depends on no transport.
//
// Concurrency contract: every member is called on the channel's executor. Only one read() may be
// pending at a time; send() may be called at any time, including while a read() is pending, and
// never blocks.

#include "mcp/Export.hpp"
#include "mcp/jsonrpc/RequestId.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <string_view>

namespace mcp::jsonrpc {

struct Decoded;

/// The outcome of one MessageChannel::read(): a frame, a skipped oversized frame, decoded messages,
/// or the end of the stream.
struct MCP_API ChannelRead {
    /// What a read produced, which says which other members are meaningful.
    enum class Kind {
        message,        ///< `text` holds one frame
        oversized,      ///< a frame longer than the limit arrived and was skipped; `size` says how long
        end_of_stream,  ///< the peer closed its side cleanly, or the channel was closed
        decoded         ///< `decoded` holds messages the channel already parsed (some parse bodies themselves)
    };
    Kind kind = Kind::end_of_stream;  ///< What the read produced.
    std::string_view text;  ///< valid until the next read()
    std::size_t size = 0;  ///< The frame's length in bytes (for `message` and `oversized`).
    std::size_t limit = 0;  ///< for `oversized`: the largest frame the channel accepts
    Decoded* decoded = nullptr;  ///< valid until the next read(); may be moved from
    /// For `end_of_stream`: the peer went away wanting nothing more (a 2026 client closing its
    /// request's stream is how it cancels), so its requests in flight are cancelled at once
    /// rather than given time to finish.
    bool abandoned = false;
};

/// What the engine knows of a frame it sends, in JSON-RPC terms. A channel that carries each
/// request's traffic separately routes by it; a byte stream ignores it.
struct MCP_API FrameInfo {
    /// For a response, the id it answers; for the replies to a batch, the id of its first member
    /// that has one (null if none has). For a request or notification, the peer's request that
    /// was being served when it was made, if any.
    const RequestId* request = nullptr;
    /// The frame is a response, or the replies to a batch.
    bool response = false;
    /// For an error response, its code.
    int error_code = 0;
};

/// A bidirectional channel of whole JSON-RPC frames, implemented by transports and driven by
/// jsonrpc::Connection. Every member is called on the channel's executor; only one read() may be
/// pending at a time, while send() may be called at any time and never blocks.
class MCP_API MessageChannel {
public:
    virtual ~MessageChannel() = default;

    /// Waits for the next frame.
    virtual boost::asio::awaitable<ChannelRead> read() = 0;
    /// Queues one frame for sending; frames leave in the order they were queued.
    virtual void send(std::string_view frame, FrameInfo info = {}) = 0;
    /// The engine will send no answer to the peer's request `id` (the peer cancelled it; for a
    /// batch whose every member was cancelled, `id` is its first member's). A channel that holds
    /// something open for the answer may let it go.
    virtual void request_ended_unanswered(const RequestId& /*id*/) {}
    /// Flushes what was queued and closes; a pending read() then ends with end_of_stream.
    /// May be called more than once.
    virtual void close() = 0;
    /// The executor the channel runs on and every member must be called on.
    virtual boost::asio::any_io_executor executor() const = 0;
};

}  // namespace mcp::jsonrpc
