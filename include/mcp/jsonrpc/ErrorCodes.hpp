#pragma once
// Error codes JSON-RPC 2.0 defines, and the engine's own local outcomes. Codes MCP adds live in
// mcp/protocol/ErrorCodes.hpp.

namespace mcp::jsonrpc::error_code {

/// The frame is not valid JSON.
inline constexpr int parse_error = -32700;
/// The JSON is not a valid JSON-RPC message (wrong envelope, empty batch, oversized frame).
inline constexpr int invalid_request = -32600;
/// No handler is registered for the request's method.
inline constexpr int method_not_found = -32601;
/// The method exists but its params are missing or malformed.
inline constexpr int invalid_params = -32602;
/// The handler failed in a way that is not the caller's fault.
inline constexpr int internal_error = -32603;
/// Sent to a peer with more requests in flight than ConnectionOptions::max_requests_in_flight: the
/// request was not run, and may be sent again once earlier ones are answered. In JSON-RPC's
/// implementation-defined range, clear of the local outcomes below.
inline constexpr int too_many_requests = -32005;

// Local outcomes of our own requests. The first two are in JSON-RPC's implementation-defined range
// (-32000…-32099) and use the TypeScript SDK's codes, so logs read the same across implementations;
// they are never sent to a peer. request_cancelled is LSP's code: a cancelled request's handler may
// also answer with it (tasks/result whose wait was cancelled).
/// Our request cannot be answered: the connection ended first (the TypeScript SDK's code).
inline constexpr int connection_closed = -32000;
/// Our request got no answer within its timeout (the TypeScript SDK's code).
inline constexpr int request_timeout = -32001;
/// Our request was cancelled (its CancellationToken fired) before an answer came; the code LSP uses.
inline constexpr int request_cancelled = -32800;

}  // namespace mcp::jsonrpc::error_code
