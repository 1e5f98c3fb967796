#include "mcp/Version.hpp"

namespace mcp {

const char* library_version() noexcept { return MCP_VERSION_STRING; }

}  // namespace mcp
