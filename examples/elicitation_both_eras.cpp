// A tool that asks the user a question before it finishes (elicitation), written once and served
// to both protocol eras:
// - a 2025-11-25 client gets an elicitation/create request from the server while the call runs;
// - a 2026-07-28 client gets an input_required result, answers it, and sends the call again.
// The handler cannot tell the difference: it returns mcp::InputRequired to ask, and is called
// again with the answer in ToolCall::input_response. The client side is the same for both too:
// ClientOptions::on_elicitation answers, whichever way the question came.
//
//   ./elicitation_both_eras          # runs the server and both clients in this process

#include <mcp/client/Client.hpp>
#include <mcp/server/Server.hpp>
#include <mcp/transport/MemoryTransport.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <iostream>

namespace asio = boost::asio;
namespace json = boost::json;

struct BookingArgs {
    std::string restaurant;
};
BOOST_DESCRIBE_STRUCT(BookingArgs, (), (restaurant))

// The tool: it needs the number of guests, which only the user knows.
mcp::Outcome<std::string> book_table(const BookingArgs& args, mcp::ToolCall& call) {
    const json::value* answer = call.input_response("guests");
    if (!answer) {
        // First run: ask. (The form's schema is what the client renders: flat, primitive fields.)
        json::object form{{"type", "object"},
                          {"properties", {{"guests", {{"type", "integer"}, {"minimum", 1}, {"maximum", 12}}}}},
                          {"required", json::array{"guests"}}};
        return mcp::InputRequired().elicit("guests", "How many guests at " + args.restaurant + "?", std::move(form));
    }
    // Second run: the user's answer, {"action": "accept" | "decline" | "cancel", "content": {...}}.
    const json::object& response = answer->as_object();
    if (response.at("action") != "accept") return "No table booked: the user said " + json::serialize(response.at("action"));
    std::int64_t guests = response.at("content").at("guests").to_number<std::int64_t>();
    return "Booked a table for " + std::to_string(guests) + " at " + args.restaurant + ".";
}

asio::awaitable<void> book_as(std::string version, std::shared_ptr<mcp::Transport> transport, int& exit_code) {
    mcp::ClientOptions options{.info = {"example-" + version, "1.0.0"}, .protocol_version = version};
    // The person answering: a real host shows a form; this one always says four.
    options.on_elicitation = [version](const json::object& params, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
        std::cout << "[" << version << "] the server asks: " << std::string_view(params.at("message").as_string()) << '\n';
        co_return json::object{{"action", "accept"}, {"content", {{"guests", 4}}}};
    };
    mcp::Client client(options);
    try {
        co_await client.connect(transport);
        BookingArgs args{"Chez Panisse"};
        mcp::CallToolResult result = co_await client.call_tool("book_table", args);
        std::cout << "[" << version << "] " << std::string_view(result.content.at(0).json.at("text").as_string()) << '\n';
        co_await client.close();
    } catch (const std::exception& error) {
        std::cout << "failed: " << error.what() << '\n';
        exit_code = 1;
    }
}

int main() {
    mcp::Server server({.name = "bookings", .version = "1.0.0"});
    server.add_tool("book_table", "Books a table, asking the user for the number of guests", book_table);

    asio::io_context io;
    int exit_code = 0;
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
        for (std::string version : {"2025-11-25", "2026-07-28"}) {
            auto [client_side, server_side] = mcp::make_memory_transports(io.get_executor());
            asio::co_spawn(io, server.serve(server_side), asio::detached);
            co_await book_as(version, client_side, exit_code);
        }
    }, asio::detached);
    io.run();
    return exit_code;
}
