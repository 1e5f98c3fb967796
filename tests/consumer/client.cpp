// Starts the server given on the command line, reads the schema it generated for its tool, calls
// the tool with JSON arguments and with an argument out of range. Prints what happens; exits 1 if
// anything is not as expected.
#include <mcp/client/Client.hpp>
#include <mcp/transport/ChildProcessTransport.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <cmath>
#include <iostream>

namespace asio = boost::asio;
namespace json = boost::json;

asio::awaitable<bool> use(mcp::Client& client) {
    const mcp::Tool* convert = nullptr;
    auto tools = co_await client.list_tools();
    for (const mcp::Tool& tool : tools)
        if (tool.name == "convert") convert = &tool;
    if (!convert) {
        std::cout << "failed: the server has no convert tool\n";
        co_return false;
    }
    // The schema the server made from its argument struct: a number at least 0, units as an enum.
    const json::value* minimum = convert->input_schema.at("properties").at("value").as_object().if_contains("minimum");
    std::cout << "value must be at least " << (minimum ? json::serialize(*minimum) : "(no minimum)") << '\n';

    // (Arguments built before the co_await: g++ 12 mishandles braced temporaries inside one.)
    json::object marathon_length{{"value", 42195}, {"from", "metre"}, {"to", "mile"}};
    mcp::CallToolResult marathon = co_await client.call_tool("convert", marathon_length);
    if (marathon.is_error || !marathon.structured_content) {
        std::cout << "failed: no structured answer\n";
        co_return false;
    }
    const json::object& miles = marathon.structured_content->as_object();
    double value = miles.at("value").to_number<double>();
    std::cout << "42195 metre = " << std::round(value * 1000) / 1000 << ' ' << std::string_view(miles.at("unit").as_string()) << '\n';

    json::object negative_length{{"value", -1}, {"from", "foot"}, {"to", "metre"}};
    mcp::CallToolResult negative = co_await client.call_tool("convert", negative_length);
    if (!negative.is_error) {
        std::cout << "failed: a negative length was accepted\n";
        co_return false;
    }
    std::cout << "refused: " << std::string_view(negative.content.at(0).json.at("text").as_string()) << '\n';
    co_return true;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: unit_converter_client SERVER\n";
        return 2;
    }
    asio::io_context io;
    bool passed = false;
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
        mcp::ChildProcessOptions child{.command = argv[1]};
        auto transport = mcp::ChildProcessTransport::spawn(io.get_executor(), child);
        mcp::Client client({.info = {"unit-converter-client", "1.0.0"}});
        try {
            co_await client.connect(transport);
            passed = co_await use(client);
        } catch (const std::exception& error) {
            std::cout << "failed: " << error.what() << '\n';
        }
        co_await transport->shutdown();
    }, asio::detached);
    io.run();
    return passed ? 0 : 1;
}
