#pragma once
// The five MCP tools of seed 002, one `what` key each: observe (read what was captured), analyze
// (look closer, in the page or in the buffers), interact (act in the page), configure (the
// daemon's settings and utilities), generate (artifacts from what was captured). Plus the
// artifacts as resources.

#include "devconsole/DevConsole.hpp"

#include "mcp/server/Server.hpp"

namespace mcpkit::devconsole {

void add_observe_tool(mcp::Server& server, DevConsole& console);
void add_analyze_tool(mcp::Server& server, DevConsole& console);
void add_interact_tool(mcp::Server& server, DevConsole& console);
void add_configure_tool(mcp::Server& server, DevConsole& console);
void add_generate_tool(mcp::Server& server, DevConsole& console);
void add_artifact_resources(mcp::Server& server, DevConsole& console);

/// Everything above.
void add_devconsole_tools(mcp::Server& server, DevConsole& console);

}  // namespace mcpkit::devconsole
