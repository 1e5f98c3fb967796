// `mcpkit everything`: the conformance suite's fixture server, over stdio.

#include "cli/Commands.hpp"
#include "everything/EverythingServer.hpp"

#include <mcp/server/Server.hpp>

#include <boost/json/serialize.hpp>

#include <cstdio>
#include <ctime>

namespace mcpkit::cli {

void add_everything_command(CLI::App& app, EverythingArguments& arguments) {
    auto* command = app.add_subcommand("everything", "Serve the MCP conformance fixture (every feature) over stdio");
    command->add_option("--max-message-size", arguments.max_message_size, "Largest accepted message, in bytes")
        ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30));
    command->add_flag("--log-json", arguments.log_json, "Write stderr log lines as JSON objects");
    command->add_option("--poll-us", arguments.poll_microseconds,
                        "Microseconds to poll stdin before sleeping while the client answers quickly (0: never)")
        ->check(CLI::Range(0, 10000));
}

int run_everything(const EverythingArguments& arguments) {
    boost::asio::io_context io(1);
    mcp::ServerOptions options = everything::server_options();
    // stdout carries only protocol; what the server has to say goes to stderr.
    if (arguments.log_json) {
        options.log = [](std::string_view message) {
            boost::json::object line{{"time", std::time(nullptr)}, {"component", "everything"}, {"message", message}};
            std::fprintf(stderr, "%s\n", boost::json::serialize(line).c_str());
        };
    } else {
        options.log = [](std::string_view message) {
            std::fprintf(stderr, "mcpkit everything: %.*s\n", static_cast<int>(message.size()), message.data());
        };
    }
    mcp::Server server(everything::server_info(), std::move(options));
    everything::register_fixture(server, io.get_executor());
    mcp::StreamTransportOptions stream;
    stream.max_message_size = arguments.max_message_size;
    stream.poll_before_wait = std::chrono::microseconds(arguments.poll_microseconds);
    return mcp::serve_stdio(server, io, stream);
}

}  // namespace mcpkit::cli
