// The smallest MCP server: one tool, over stdio. This is the README's example, compiled and run by
// CI (examples/CMakeLists.txt), so it cannot drift from the API.
//
//   ./echo_server_stdio          # then point any MCP client at it, e.g.
//   mcpkit client call echo '{"text":"hi"}' -- ./echo_server_stdio

#include <mcp/server/Server.hpp>

int main() {
    mcp::Server server({.name = "demo", .version = "1.0.0"});
    server.add_tool({.name = "echo",
                     .description = "Echoes text",
                     .input_schema = mcp::schema_object({{"text", {{"type", "string"}}}}, {"text"})},
                    [](mcp::ToolCall& call) { return mcp::CallToolResult::text(call.arguments.at("text").as_string()); });
    return mcp::serve_stdio(server);
}
