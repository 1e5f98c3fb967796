#pragma once
// What the five devconsole tools share: their schemas (the original project's parameters, one
// `what` key choosing the mode), reading arguments, and the shape of every answer: a structured
// object (what, status, the mode's fields, metadata) plus a text rendering whose first line says
// what happened.

#include "mcp/protocol/Tool.hpp"
#include "mcp/server/RequestContext.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::devconsole {

/// The tool `name` (observe, analyze, interact, configure, generate) with its input schema,
/// output schema and `description`.
mcp::Tool make_tool(std::string_view name, std::string description);
/// The modes the original schema lists for a tool.
std::vector<std::string> tool_modes(std::string_view name);

/// The mode asked for: `what`, or its deprecated alias (`action`, `format`). Empty: none given.
std::string mode_of(const boost::json::object& arguments, std::string_view alias = {});

std::optional<std::string> string_argument(const boost::json::object& arguments, std::string_view name);
std::optional<double> number_argument(const boost::json::object& arguments, std::string_view name);
std::optional<bool> bool_argument(const boost::json::object& arguments, std::string_view name);
/// A count argument within [1, maximum], `fallback` when absent.
std::size_t limit_argument(const boost::json::object& arguments, std::string_view name, std::size_t fallback,
                           std::size_t maximum);

/// A successful answer: `fields` gets "what" and "status", the text its summary line.
mcp::CallToolResult answer(std::string_view what, std::string summary, boost::json::object fields,
                           std::string_view status = "ok");
/// A failure the model should read: names the problem and the fix.
mcp::CallToolResult failure(std::string_view what, std::string_view error_code, std::string message,
                            boost::json::object fields = {});
/// A mode that mcpkit does not serve, and why.
mcp::CallToolResult unsupported(std::string_view tool, std::string_view what, std::string_view reason);
/// An unknown or missing mode: lists the known ones.
mcp::CallToolResult unknown_mode(std::string_view tool, std::string_view what);

/// A cursor names a position in a capture ring: "<time>:<sequence>". Returns the sequence.
std::optional<std::uint64_t> parse_cursor(std::string_view cursor);
std::string make_cursor(std::int64_t time_ms, std::uint64_t sequence);

}  // namespace mcpkit::devconsole
