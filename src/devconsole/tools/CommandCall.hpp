#pragma once
// A tool call that needs the browser: queue a command for the extension and, by default, wait for
// its result (up to tool_wait, 15 s), then answer still_processing with the correlation id; with
// background:true (or sync:false / wait:false) answer "queued" at once. MCP cancellation cancels
// the command (and tells the extension if it already has it). A disconnected extension gets a
// short grace to come back; then the call is refused, and nothing is queued.

#include "devconsole/DevConsole.hpp"

#include "mcp/protocol/Tool.hpp"
#include "mcp/server/RequestContext.hpp"

#include <boost/asio/awaitable.hpp>

#include <functional>

namespace mcpkit::devconsole {

struct CommandRequest {
    std::string what;    ///< the mode, as reported back
    std::string type;    ///< the extension's command type
    std::string prefix;  ///< of the correlation id: exec, dom, nav …
    boost::json::object params;
    std::string origin;  ///< "interact execute_js"
};

/// Turns a finished command into the tool's answer (a screenshot becomes an artifact …). The
/// default reports the extension's result as it came.
using ResultShaper = std::function<mcp::CallToolResult(const CommandSnapshot&)>;

/// `request` and `shape` must outlive the call (named locals of the caller: g++ 12 mishandles
/// temporaries built inside a co_await expression).
boost::asio::awaitable<mcp::CallToolResult> run_command(DevConsole& console, mcp::ToolCall& call,
                                                        const CommandRequest& request, const ResultShaper& shape);
boost::asio::awaitable<mcp::CallToolResult> run_command(DevConsole& console, mcp::ToolCall& call,
                                                        const CommandRequest& request);

/// The answer for a command in any state (also observe command_result).
mcp::CallToolResult command_answer(const CommandSnapshot& snapshot, std::string_view what);

/// Whether the caller asked not to wait.
bool wants_background(const boost::json::object& arguments);

}  // namespace mcpkit::devconsole
