#pragma once
// Error codes JSON-RPC 2.0 defines, and the engine's own local outcomes. Codes MCP adds live in
// mcp/protocol/ErrorCodes.hpp.

namespace mcp::jsonrpc::error_code {

inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;

// Implementation-defined (-32000…-32019): ours. These are local outcomes of our own requests,
// never sent to a peer. The first two use the TypeScript SDK's codes so logs read the same across
// implementations.
inline constexpr int connection_closed = -32000;
inline constexpr int request_timeout = -32001;
inline constexpr int request_cancelled = -32800;

}  // namespace mcp::jsonrpc::error_code
