#pragma once
// The names models see: server__tool, within 64 characters of [A-Za-z0-9_-] (OpenAI's rule;
// Gemini's is looser but refuses ':' and a leading digit). A longer name keeps its start and
// ends with a hash of the whole, so it stays unique and the same across restarts; so does a name
// whose split into server and tool would be ambiguous. A length limit means two pairs can still
// meet on one name (a hostile server can aim for it): the coordinator offers neither then, and
// says so (McpCoordinator::rebuild_registry).

#include <string>
#include <string_view>

namespace mcpkit::host {

inline constexpr std::size_t max_tool_name_length = 64;

std::string qualified_tool_name(std::string_view server, std::string_view tool);

}  // namespace mcpkit::host
