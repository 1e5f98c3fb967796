#pragma once
// Two connected in-process transports, for tests and for embedding a server in the same process
// as its client. Frames are copied, never shared; both ends live on one executor.

#include "mcp/transport/Transport.hpp"

#include <memory>
#include <utility>

namespace mcp {

std::pair<std::shared_ptr<Transport>, std::shared_ptr<Transport>> make_memory_transports(
    boost::asio::any_io_executor executor);

}  // namespace mcp
