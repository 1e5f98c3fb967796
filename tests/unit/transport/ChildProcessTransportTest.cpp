// Starting a server as a child process: its args, env and cwd, its stderr, noticing its exit,
// and the spec's shutdown sequence (close stdin, SIGTERM, SIGKILL).

#include "mcp/transport/ChildProcessTransport.hpp"

#include "TestSupport.hpp"

#include <boost/json/parse.hpp>

#include <csignal>

using namespace mcp;
using mcp::testing::run;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

std::shared_ptr<ChildProcessTransport> start_shell(asio::io_context& io, std::string script,
                                                   ChildProcessOptions options = {}) {
    options.command = "/bin/sh";
    options.args.insert(options.args.begin(), {"-c", std::move(script)});
    return ChildProcessTransport::spawn(io.get_executor(), std::move(options));
}

}  // namespace

TEST(ChildProcessTransport, PassesArgumentsEnvironmentAndWorkingDirectory) {
    asio::io_context io;
    ChildProcessOptions options;
    options.args = {"first-argument"};
    options.env = {{"MCPKIT_TEST_VARIABLE", "from the test"}};
    options.cwd = "/tmp";
    auto child = start_shell(io, R"sh(printf '{"arg":"%s","env":"%s","cwd":"%s"}\n' "$0" "$MCPKIT_TEST_VARIABLE" "$(pwd)")sh",
                             options);
    run(io, [&]() -> asio::awaitable<void> {
        jsonrpc::ChannelRead read = co_await child->read();
        CO_ASSERT_EQ(read.kind, jsonrpc::ChannelRead::Kind::message);
        json::value frame = json::parse(read.text);
        EXPECT_EQ(frame.at("arg"), "first-argument");
        EXPECT_EQ(frame.at("env"), "from the test");
        EXPECT_EQ(frame.at("cwd"), "/tmp");
        EXPECT_EQ(co_await child->wait_for_exit(), 0);
    });
}

TEST(ChildProcessTransport, HandsOnStderrLinesAndNoticesTheExit) {
    asio::io_context io;
    std::vector<std::string> lines;
    int exit_seen = -1;
    ChildProcessOptions options;
    options.on_stderr_line = [&](std::string_view line) { lines.emplace_back(line); };
    options.on_exit = [&](int code) { exit_seen = code; };
    auto child = start_shell(io, "echo starting >&2; echo 'second line' >&2; exit 3", options);
    run(io, [&]() -> asio::awaitable<void> {
        EXPECT_EQ((co_await child->read()).kind, jsonrpc::ChannelRead::Kind::end_of_stream);
        EXPECT_EQ(co_await child->wait_for_exit(), 3);
        co_await mcp::testing::sleep_for(std::chrono::milliseconds(20));  // stderr may trail the exit
    });
    EXPECT_EQ(exit_seen, 3);
    EXPECT_EQ(lines, (std::vector<std::string>{"starting", "second line"}));
}

TEST(ChildProcessTransport, ShutdownClosesStdinFirst) {
    asio::io_context io;
    auto child = start_shell(io, "cat > /dev/null; exit 0");
    run(io, [&]() -> asio::awaitable<void> {
        auto started = std::chrono::steady_clock::now();
        EXPECT_EQ(co_await child->shutdown(), 0);
        EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(1));
    });
}

TEST(ChildProcessTransport, ShutdownEscalatesToSigtermThenSigkill) {
    asio::io_context io;
    ChildProcessOptions options;
    options.shutdown_step = std::chrono::milliseconds(200);
    // Ignores the end of its input; leaves on SIGTERM.
    auto polite = start_shell(io, "trap 'exit 0' TERM; while :; do sleep 0.02; done", options);
    // Ignores SIGTERM too: only SIGKILL ends it.
    auto stubborn = start_shell(io, "trap '' TERM; while :; do sleep 0.02; done", options);
    run(io, [&]() -> asio::awaitable<void> {
        co_await mcp::testing::sleep_for(std::chrono::milliseconds(50));  // let the traps be set
        EXPECT_EQ(co_await polite->shutdown(), 0);
        auto started = std::chrono::steady_clock::now();
        EXPECT_EQ(co_await stubborn->shutdown(), 128 + SIGKILL);
        EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(400));
    });
}

TEST(ChildProcessTransport, AMissingCommandIsAClearError) {
    asio::io_context io;
    ChildProcessOptions options;
    options.command = "/nonexistent/mcp-server";
    try {
        ChildProcessTransport::spawn(io.get_executor(), options);
        FAIL() << "spawning a missing command succeeded";
    } catch (const std::system_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/mcp-server"), std::string::npos) << e.what();
    }
}
