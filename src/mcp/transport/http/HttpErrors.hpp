#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// JSON-RPC error bodies the HTTP layer writes itself, and the HTTP status a 2026-07-28 error
// code travels with.

#include "mcp/jsonrpc/RequestId.hpp"

#include <boost/json/value.hpp>

#include <string>

namespace mcp::http {

/// `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…,"data":…}}`
std::string error_body(const jsonrpc::RequestId& id, int code, std::string_view message,
                       const boost::json::value& data = nullptr);
/// The 404 answer for an unknown, expired or deleted session.
std::string session_not_found_body();
/// 2026-07-28: header, version and capability errors are 400, unknown methods 404, others 200.
int modern_error_status(int error_code);

}  // namespace mcp::http
