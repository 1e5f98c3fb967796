#pragma once
// Two connected in-process transports, for tests and for embedding a server in the same process
// as its client. Frames are copied, never shared; both ends live on one executor.

#include "mcp/Export.hpp"
#include "mcp/transport/Transport.hpp"

#include <memory>
#include <utility>

namespace mcp {

/// Two connected in-process transports: what one end sends, the other reads. Frames are copied,
/// never shared; both ends run on `executor`. For tests and for a server embedded in its client's
/// process.
MCP_API std::pair<std::shared_ptr<Transport>, std::shared_ptr<Transport>> make_memory_transports(
    boost::asio::any_io_executor executor);

}  // namespace mcp
