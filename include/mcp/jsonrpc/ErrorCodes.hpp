#pragma once
// Error codes: the ones JSON-RPC 2.0 defines and the ones MCP adds, in one place.

namespace mcp::jsonrpc::error_code {

inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;

// MCP, 2025 era.
inline constexpr int resource_not_found_2025 = -32002;
inline constexpr int url_elicitation_required = -32042;
// MCP, 2026-07-28: the -32020…-32099 range belongs to MCP.
inline constexpr int header_mismatch = -32020;
inline constexpr int missing_required_client_capability = -32021;
inline constexpr int unsupported_protocol_version = -32022;
// Implementation-defined (-32000…-32019): ours.
// The next three are local outcomes of our own requests, never sent to a peer. The first two use
// the TypeScript SDK's codes so logs read the same across implementations.
inline constexpr int connection_closed = -32000;
inline constexpr int request_timeout = -32001;
inline constexpr int request_cancelled = -32800;

}  // namespace mcp::jsonrpc::error_code
