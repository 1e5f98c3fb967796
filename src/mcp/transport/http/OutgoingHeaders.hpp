#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The 2026-07-28 headers a client adds to each POST: MCP-Protocol-Version, Mcp-Method, Mcp-Name
// and one Mcp-Param-* per argument its tool mirrors (x-mcp-header), learnt from tools/list.

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/json/value.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcp::http {

/// For each tool: (argument name, header name) pairs.
using ToolHeaders = std::map<std::string, std::vector<std::pair<std::string, std::string>>, std::less<>>;

/// params._meta["io.modelcontextprotocol/protocolVersion"] of a message, if any.
std::optional<std::string> meta_protocol_version(const boost::json::value& message);

/// Remembers the mirrored arguments of every valid tool in a tools/list result.
void learn_tool_headers(const boost::json::object& tools_list_result, ToolHeaders& headers);

/// Standard Base64 with padding (Mcp-Param-* values, Basic proxy credentials).
std::string base64(std::string_view bytes);

/// A header value as the spec encodes it: plain when safe, else =?base64?…?=.
std::string encode_header_value(std::string_view value);

void add_modern_headers(boost::beast::http::request<boost::beast::http::string_body>& request,
                        const boost::json::value& message, const ToolHeaders& tool_headers);

}  // namespace mcp::http
