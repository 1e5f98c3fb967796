#pragma once
// A transport moves whole JSON-RPC frames (text) between two peers. It knows nothing of their
// meaning: parsing and correlation belong to jsonrpc::Connection.
//
// Concurrency contract: every member is called on the transport's executor (libmcp runs one
// I/O thread per connection group). Only one read() may be pending at a time; send() may be
// called at any time, including while a read() is pending, and never blocks.

#include "mcp/jsonrpc/RequestId.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace mcp {

namespace jsonrpc {
struct Decoded;
}

struct TransportRead {
    enum class Kind {
        message,       ///< `text` holds one frame
        oversized,     ///< a frame longer than the limit arrived and was skipped; `size` says how long
        end_of_stream,  ///< the peer closed its side cleanly, or the transport was closed
        decoded         ///< `decoded` holds messages the transport already parsed (HTTP parses bodies itself)
    };
    Kind kind = Kind::end_of_stream;
    std::string_view text;  ///< valid until the next read()
    std::size_t size = 0;
    std::size_t limit = 0;  ///< for `oversized`: the largest frame the transport accepts
    jsonrpc::Decoded* decoded = nullptr;  ///< valid until the next read(); may be moved from
};

/// Where an outgoing frame belongs. Stream transports ignore it; Streamable HTTP uses it to send
/// a progress notification or a server→client request on the stream of the request it serves.
struct SendContext {
    /// For a response, the id it answers; otherwise the inbound request the frame belongs to.
    const jsonrpc::RequestId* related_request = nullptr;
    /// The frame is a response (or, with no related_request, the replies to a batch).
    bool response = false;
    /// For an error response, its code (HTTP maps some codes to a status).
    int error_code = 0;
};

class Transport {
public:
    virtual ~Transport() = default;

    /// Waits for the next frame.
    virtual boost::asio::awaitable<TransportRead> read() = 0;
    /// Queues one frame for sending; frames leave in the order they were queued.
    virtual void send(std::string_view frame, SendContext context = {}) = 0;
    /// Flushes what was queued and closes; a pending read() then ends with end_of_stream.
    /// May be called more than once.
    virtual void close() = 0;
    /// Ends the stream that carries request `id`'s messages without ending the request, so the
    /// client reconnects and resumes it later (Streamable HTTP's SSE polling). Others ignore it.
    virtual void close_request_stream(const jsonrpc::RequestId& /*id*/) {}
    virtual boost::asio::any_io_executor executor() const = 0;
};

}  // namespace mcp
