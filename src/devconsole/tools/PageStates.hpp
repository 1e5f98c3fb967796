#pragma once
// Named page states (interact save_state / load_state / list_states / delete_state): the page's
// URL, localStorage, sessionStorage and readable cookies, read through the extension and put back
// with storage writes (and a navigation, with include_url). Kept while the daemon runs.

#include "devconsole/DevConsole.hpp"

#include "mcp/protocol/Tool.hpp"
#include "mcp/server/RequestContext.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>


namespace mcpkit::devconsole {


/// True for the state modes and their aliases (save_state, state_save, …).
bool is_page_state_mode(std::string_view what);
boost::asio::awaitable<mcp::CallToolResult> run_page_state(DevConsole& console, mcp::ToolCall& call, std::string what,
                                                           boost::json::object arguments);

}  // namespace mcpkit::devconsole
