#pragma once
// Writing Server-Sent Events (the other half of SseParser): one function for every stream the
// project serves, MCP's and the applications' own.

#include "mcp/Export.hpp"

#include <chrono>
#include <string>
#include <string_view>

namespace mcp {

/// Appends one event to `out`: `id:` and `retry:` when given, `event:` when `type` is not empty,
/// then the data as one `data:` line per line of it (a newline in the data cannot end the event
/// early or start another field), and the blank line that dispatches it.
MCP_API void append_sse_event(std::string& out, std::string_view data, std::string_view type = {}, std::string_view id = {},
                      std::chrono::milliseconds retry = std::chrono::milliseconds(0));

/// Appends a comment, which readers skip: sent on idle streams so that proxies keep them open.
MCP_API void append_sse_comment(std::string& out, std::string_view text = "keepalive");

}  // namespace mcp
