#pragma once
// The five MCP tools of seed 002, one `what` key each: observe (read what was captured), analyze
// (look closer, in the page or in the buffers), interact (act in the page), configure (the
// daemon's settings and utilities), generate (artifacts from what was captured). Plus the
// artifacts as resources.

#include "devconsole/DevConsole.hpp"

#include "mcp/server/Server.hpp"

#include <chrono>

namespace mcpkit::devconsole {

/// A tool handler (a coroutine taking the call) with each call recorded in the audit log.
template <class Run>
auto audited(DevConsole& console, std::string_view tool, Run run) {
    return [&console, tool, run = std::move(run)](mcp::ToolCall& call) -> boost::asio::awaitable<mcp::CallToolResult> {
        auto started = std::chrono::steady_clock::now();
        auto result = co_await run(call);
        auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
        console.audit_log().record(tool, call.arguments, result, elapsed.count());
        co_return result;
    };
}

void add_observe_tool(mcp::Server& server, DevConsole& console);
void add_analyze_tool(mcp::Server& server, DevConsole& console);
void add_interact_tool(mcp::Server& server, DevConsole& console);
void add_configure_tool(mcp::Server& server, DevConsole& console);
void add_generate_tool(mcp::Server& server, DevConsole& console);
void add_artifact_resources(mcp::Server& server, DevConsole& console);

/// Everything above.
void add_devconsole_tools(mcp::Server& server, DevConsole& console);

}  // namespace mcpkit::devconsole
