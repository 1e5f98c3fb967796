#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The Streamable HTTP rules that need only the request itself (DNS rebinding protection is
// mcp::HostPolicy's): which protocol era a POST belongs to, and the 2026-07-28 standard headers (Mcp-Method, Mcp-Name).
// Pure functions, so they are tested without a socket.

#include "mcp/jsonrpc/Codec.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http {

/// Whether a POST is served in the 2026-07-28 (stateless) era rather than the session era.
/// `meta_version` is params._meta["io.modelcontextprotocol/protocolVersion"] when it is a string.
bool is_modern_request(bool has_session_id, std::string_view version_header, bool has_meta_version);

/// params._meta["io.modelcontextprotocol/protocolVersion"], if it is a string.
std::optional<std::string_view> protocol_version_in_meta(const boost::json::object& params);
/// The same for a single message's params, if present.
std::optional<std::string_view> meta_protocol_version(const jsonrpc::Decoded& decoded);
/// The body's request when it is one request (not a batch, a notification or a response).
const jsonrpc::Request* single_request(const jsonrpc::Decoded& decoded);
/// The method of a single message, or empty.
std::string_view single_method(const jsonrpc::Decoded& decoded);

/// A 2026-07-28 header problem: what to tell the client (error -32020, HTTP 400).
struct HeaderProblem {
    std::string message;
};

/// Checks MCP-Protocol-Version against _meta, Mcp-Method against the body, and Mcp-Name against
/// the name, uri or taskId the method addresses. Header values arrive as sent (OWS is trimmed here).
std::optional<HeaderProblem> check_standard_headers(const jsonrpc::Decoded& decoded,
                                                    std::optional<std::string_view> version_header,
                                                    std::optional<std::string_view> method_header,
                                                    std::optional<std::string_view> name_header);

/// An Mcp-Param-* header as received: the name after "Mcp-Param-", and the raw value.
struct ParameterHeader {
    std::string name;
    std::string value;
};

/// SEP-2243: every argument whose schema property carries `x-mcp-header: Name` and whose value is
/// not null must be mirrored, exactly, in an `Mcp-Param-Name` header (Base64 form allowed).
std::optional<HeaderProblem> check_parameter_headers(const boost::json::object& input_schema,
                                                     const boost::json::object& arguments,
                                                     const std::vector<ParameterHeader>& headers);

/// Decodes a header value that may be `=?base64?…?=`; nothing if that form is malformed.
std::optional<std::string> decode_header_value(std::string_view value);

}  // namespace mcp::http
