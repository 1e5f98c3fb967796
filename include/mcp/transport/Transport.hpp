#pragma once
// A transport moves whole JSON-RPC frames between two peers: it is the channel the JSON-RPC
// engine reads and writes (jsonrpc::MessageChannel), and knows nothing of the frames' meaning.
// Stream transports (stdio, child processes, memory) are byte streams; a transport that carries
// each request on a stream of its own offers more through interfaces of its own.

#include "mcp/Export.hpp"
#include "mcp/jsonrpc/MessageChannel.hpp"

namespace mcp {

/// A channel of whole JSON-RPC frames between two peers, as Server::serve and Client take it;
/// transports that carry each request on a stream of their own offer more through their own interfaces.
class MCP_API Transport : public jsonrpc::MessageChannel {};

}  // namespace mcp
