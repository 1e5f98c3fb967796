#pragma once
// The error codes MCP adds to JSON-RPC's. `mcp::error_code` names both sets, so MCP code can say
// `mcp::error_code::invalid_params` and `mcp::error_code::header_mismatch` alike.

#include "mcp/jsonrpc/ErrorCodes.hpp"

namespace mcp::error_code {

using namespace jsonrpc::error_code;

// 2025 era.
/// resources/read of an unknown URI, in the 2025 revisions.
inline constexpr int resource_not_found_2025 = -32002;
/// The request needs the user to complete a URL-mode elicitation first.
inline constexpr int url_elicitation_required = -32042;
// 2026-07-28: the -32020…-32099 range belongs to MCP.
/// A required HTTP header (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*) is missing or
/// disagrees with the JSON-RPC body it travels with.
inline constexpr int header_mismatch = -32020;
/// The request needs a capability the client did not declare.
inline constexpr int missing_required_client_capability = -32021;
/// The request names a protocol revision the server does not speak.
inline constexpr int unsupported_protocol_version = -32022;

}  // namespace mcp::error_code
