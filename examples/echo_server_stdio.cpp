// The smallest MCP server: one typed tool, over stdio. This is the README's example, compiled and
// run by CI (examples/CMakeLists.txt), so it cannot drift from the API.
//
//   ./echo_server_stdio          # then point any MCP client at it, e.g.
//   mcpkit client call echo '{"text":"hi"}' -- ./echo_server_stdio

#include <mcp/server/Server.hpp>

#include <boost/describe.hpp>

// The tool's arguments: libmcp generates the input schema from the struct and parses each call's
// arguments into it, refusing bad ones with an error that names the field.
struct EchoArgs {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(EchoArgs, (), (text))

int main() {
    mcp::Server server({.name = "demo", .version = "1.0.0"});
    server.add_tool("echo", "Echoes text", [](const EchoArgs& args) { return args.text; });
    return mcp::serve_stdio(server);
}
