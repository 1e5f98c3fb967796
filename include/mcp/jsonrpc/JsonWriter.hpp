#pragma once
// JSON text for what libmcp sends.
//
// Boost.JSON 1.81 writes every double in exponent form (100.0 as "1E2", 13.93 as "1.393E1"):
// valid JSON, but hard to read for the people and models who look at results. This writer gives
// the shortest text that reads back as the same double ("100", "13.93"), writes -0 as 0 (as
// JSON.stringify does), infinities as 1e999 / -1e999 (which every JSON parser reads back as the
// same infinity, so a progress token of 1e999 comes back as sent), NaN as null, and escapes
// strings as Boost does.

#include "mcp/Export.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace mcp::jsonrpc {

/// Appends the JSON text of `value`, without an intermediate string.
MCP_API void append_json(std::string& out, const boost::json::value& value);
/// As above, for an object, so callers holding one need not wrap it in a value.
MCP_API void append_json(std::string& out, const boost::json::object& object);
/// Appends `text` as a JSON string, quoted and escaped.
MCP_API void append_json_string(std::string& out, std::string_view text);

/// The JSON text of `value`.
MCP_API std::string to_json_text(const boost::json::value& value);

}  // namespace mcp::jsonrpc
