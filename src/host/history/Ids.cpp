#include "host/history/Ids.hpp"

#include <mcp/RandomId.hpp>

namespace mcpkit::host {

std::string new_id(std::string_view prefix) { return std::string(prefix) + "_" + mcp::random_hex(16); }

}  // namespace mcpkit::host
