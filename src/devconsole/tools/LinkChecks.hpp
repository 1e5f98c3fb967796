#pragma once
// analyze link_health (the tracked page's links, found through the extension) and link_validation
// (given URLs): each http(s) URL requested by the daemon (HEAD, then GET where HEAD is refused),
// a few at a time, each within a timeout. Redirects are followed; only the status is reported. A
// public page's links to loopback or private addresses are skipped (no probing of the user's
// network on a page's behalf); a page served from there may have them checked.

#include "devconsole/DevConsole.hpp"

#include "mcp/protocol/Tool.hpp"
#include "mcp/server/RequestContext.hpp"

#include <boost/asio/awaitable.hpp>

namespace mcpkit::devconsole {

boost::asio::awaitable<mcp::CallToolResult> check_links(DevConsole& console, mcp::ToolCall& call, std::string what,
                                                        boost::json::object arguments);

}  // namespace mcpkit::devconsole
