#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The request headers the MCP endpoint reads, found in one pass over the request.

#include "transport/http/HttpRequestParser.hpp"

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::http {

/// A lookup per name would compare names case-insensitively over and over. The first of repeated
/// headers wins.
struct IncomingHeaders {
    std::optional<std::string_view> host, origin, content_type, accept, cors_request_headers, authorization;
    std::optional<std::string_view> session_id, protocol_version, last_event_id, mcp_method, mcp_name;
    std::vector<std::pair<std::string_view, std::string_view>> parameters;  ///< Mcp-Param-<name>
};

IncomingHeaders read_headers(const HttpRequest& request);

}  // namespace mcp::http
