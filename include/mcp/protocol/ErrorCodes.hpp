#pragma once
// The error codes MCP adds to JSON-RPC's. `mcp::error_code` names both sets, so MCP code can say
// `mcp::error_code::invalid_params` and `mcp::error_code::header_mismatch` alike.

#include "mcp/jsonrpc/ErrorCodes.hpp"

namespace mcp::error_code {

using namespace jsonrpc::error_code;

// 2025 era.
inline constexpr int resource_not_found_2025 = -32002;
inline constexpr int url_elicitation_required = -32042;
// 2026-07-28: the -32020…-32099 range belongs to MCP.
inline constexpr int header_mismatch = -32020;
inline constexpr int missing_required_client_capability = -32021;
inline constexpr int unsupported_protocol_version = -32022;

}  // namespace mcp::error_code
