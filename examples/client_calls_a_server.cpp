// A client that starts an MCP server as a child process, lists its tools, calls one with progress,
// and cancels a long call midway.
//
//   ./client_calls_a_server ./echo_server_stdio                       # lists and calls echo
//   ./client_calls_a_server mcpkit everything                         # also counts with progress, then cancels
//
// Prints what happens on stdout; exits non-zero if anything fails.

#include <mcp/Cancellation.hpp>
#include <mcp/Error.hpp>
#include <mcp/client/Client.hpp>
#include <mcp/transport/ChildProcessTransport.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <iostream>

namespace asio = boost::asio;
namespace json = boost::json;

asio::awaitable<void> use_the_server(mcp::Client& client) {
    auto tools = co_await client.list_tools();
    std::cout << tools.size() << " tools:";
    bool counts = false;
    for (const mcp::Tool& tool : tools) {
        std::cout << ' ' << tool.name;
        counts = counts || tool.name == "count_slowly";
    }
    std::cout << '\n';

    json::object hello{{"text", "hello from the example client"}};
    mcp::CallToolResult echoed = co_await client.call_tool("echo", hello);
    std::cout << "echo answered: " << std::string_view(echoed.content.at(0).json.at("text").as_string()) << '\n';
    if (!counts) co_return;

    // Progress: the server reports each step; the handler runs for each notification.
    mcp::RequestOptions with_progress;
    with_progress.on_progress = [](double done, std::optional<double> total, const std::string& message) {
        std::cout << "  progress " << done << " / " << total.value_or(0) << ": " << message << '\n';
    };
    json::object three{{"to", 3}, {"interval_ms", 10}};
    mcp::CallToolResult counted = co_await client.call_tool("count_slowly", three, with_progress);
    std::cout << "count_slowly answered: " << std::string_view(counted.content.at(0).json.at("text").as_string()) << '\n';

    // Cancellation: a CancellationSource cancels the call (notifications/cancelled to the server);
    // the awaiting call_tool then throws mcp::Error with code -32800.
    mcp::CancellationSource source;
    mcp::RequestOptions cancellable;
    cancellable.cancellation = source.token();
    int steps = 0;
    cancellable.on_progress = [&](double, std::optional<double>, const std::string&) {
        if (++steps == 2) source.cancel("the example changed its mind");
    };
    json::object forever{{"to", 1000}, {"interval_ms", 10}};
    try {
        co_await client.call_tool("count_slowly", forever, cancellable);
        throw std::runtime_error("a cancelled call was answered");
    } catch (const mcp::Error& error) {
        std::cout << "the long call was cancelled after " << steps << " steps: " << error.what() << '\n';
    }
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: client_calls_a_server COMMAND [ARGS...]\n";
        return 2;
    }
    asio::io_context io;
    int exit_code = 0;
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
        mcp::ChildProcessOptions child{.command = argv[1], .args = {argv + 2, argv + argc}};
        auto transport = mcp::ChildProcessTransport::spawn(io.get_executor(), child);
        mcp::Client client({.info = {"example-client", "1.0.0"}});
        try {
            co_await client.connect(transport);
            std::cout << "connected to " << client.server_info().name << ' ' << client.server_info().version << '\n';
            co_await use_the_server(client);
        } catch (const std::exception& error) {
            std::cerr << "failed: " << error.what() << '\n';
            exit_code = 1;
        }
        co_await transport->shutdown();
    }, asio::detached);
    io.run();
    return exit_code;
}
