#pragma once
// One interact action, callable by the interact tool and by what replays actions (saved
// sequences, page states).

#include "devconsole/DevConsole.hpp"

#include "mcp/protocol/Tool.hpp"
#include "mcp/server/RequestContext.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

namespace mcpkit::devconsole {

/// Runs interact with `arguments` (what/action chooses the mode) on behalf of `call`, whose
/// cancellation it honours.
boost::asio::awaitable<mcp::CallToolResult> run_interact(DevConsole& console, mcp::ToolCall& call,
                                                         boost::json::object arguments);

}  // namespace mcpkit::devconsole
