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

struct TransportRead {
    enum class Kind {
        message,       ///< `text` holds one frame
        oversized,     ///< a frame longer than the limit arrived and was skipped; `size` says how long
        end_of_stream  ///< the peer closed its side cleanly, or the transport was closed
    };
    Kind kind = Kind::end_of_stream;
    std::string_view text;  ///< valid until the next read()
    std::size_t size = 0;
};

/// Where an outgoing frame belongs. Stream transports ignore it; Streamable HTTP uses it to send
/// a progress notification or a server→client request on the stream of the request it serves.
struct SendContext {
    const jsonrpc::RequestId* related_request = nullptr;
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
    virtual boost::asio::any_io_executor executor() const = 0;
};

}  // namespace mcp
