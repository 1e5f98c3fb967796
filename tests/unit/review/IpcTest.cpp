// The review IPC over real Unix sockets: the C++ client against the C++ server, and against
// peers that misbehave (late, silent, gone mid-call).

#include "TestSupport.hpp"
#include "review/IpcClient.hpp"
#include "review/IpcServer.hpp"

#include <mcp/Cancellation.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>

#include <filesystem>
#include <unistd.h>

using namespace mcpkit::review;
using mcp::testing::run;
using mcp::testing::sleep_for;
namespace asio = boost::asio;
namespace json = boost::json;
using local = asio::local::stream_protocol;
using std::chrono::milliseconds;

namespace {

struct IpcFixture {
    asio::io_context io;
    std::string path = (std::filesystem::temp_directory_path() /
                        ("ipc-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".sock"))
                           .string();
    int handled = 0;
    IpcServer::Handler handler = [this](std::string_view type, const json::object& payload) {
        ++handled;
        if (type != "present-review") return IpcReply{false, "Unknown message type: " + std::string(type)};
        if (!payload.contains("content")) return IpcReply{false, "no content"};
        return IpcReply{};
    };

    IpcClientOptions client_options(milliseconds timeout = milliseconds(2000)) {
        IpcClientOptions options;
        options.locate = [this] { return SocketCandidates{{path}, "the test socket"}; };
        options.timeout = timeout;
        return options;
    }
    ~IpcFixture() { std::filesystem::remove(path); }
    static inline int counter = 0;
};

json::object review_payload() { return json::object{{"content", "## Summary"}, {"mode", "replace"}}; }

/// A peer that accepts, reads one line, and then does `after_reading`: answer nothing, or hang up.
asio::awaitable<void> misbehaving_peer(local::acceptor& acceptor, bool hang_up) {
    local::socket socket(acceptor.get_executor());
    co_await acceptor.async_accept(socket, asio::use_awaitable);
    std::string line;
    co_await asio::async_read_until(socket, asio::dynamic_buffer(line), '\n', asio::use_awaitable);
    if (hang_up) {
        socket.close();
        co_return;
    }
    co_await sleep_for(milliseconds(1500));  // silent well past the client's timeout
}

}  // namespace

TEST(ReviewIpc, AnswersOneHundredConcurrentRequestsOnOneConnection) {
    IpcFixture f;
    IpcServer server(f.io.get_executor(), f.path, f.handler);
    server.start();
    IpcClient client(f.io.get_executor(), f.client_options());
    int succeeded = 0, finished = 0;
    run(f.io, [&]() -> asio::awaitable<void> {
        for (int i = 0; i < 100; ++i)
            asio::co_spawn(f.io, [&]() -> asio::awaitable<void> {
                auto outcome = co_await client.request("present-review", review_payload());
                if (outcome.kind == IpcOutcome::Kind::answered && outcome.success) ++succeeded;
                ++finished;
            }, asio::detached);
        while (finished < 100) co_await sleep_for(milliseconds(5));
    });
    EXPECT_EQ(succeeded, 100);
    EXPECT_EQ(f.handled, 100);
    EXPECT_EQ(client.pending(), 0u);
    EXPECT_TRUE(client.connected());
}

TEST(ReviewIpc, ReportsThePanelsOwnErrors) {
    IpcFixture f;
    IpcServer server(f.io.get_executor(), f.path, f.handler);
    server.start();
    IpcClient client(f.io.get_executor(), f.client_options());
    run(f.io, [&]() -> asio::awaitable<void> {
        auto outcome = co_await client.request("rename-everything", review_payload());
        EXPECT_EQ(outcome.kind, IpcOutcome::Kind::answered);
        EXPECT_FALSE(outcome.success);
        EXPECT_EQ(outcome.error, "Unknown message type: rename-everything");
    });
}

TEST(ReviewIpc, ConnectsToAPanelThatStartsAfterTheCall) {
    IpcFixture f;
    IpcServer server(f.io.get_executor(), f.path, f.handler);
    IpcClient client(f.io.get_executor(), f.client_options());
    run(f.io, [&]() -> asio::awaitable<void> {
        asio::co_spawn(f.io, [&]() -> asio::awaitable<void> {
            co_await sleep_for(milliseconds(400));
            server.start();
        }, asio::detached);
        auto outcome = co_await client.request("present-review", review_payload());
        EXPECT_EQ(outcome.kind, IpcOutcome::Kind::answered);
        EXPECT_TRUE(outcome.success);
    });
    EXPECT_EQ(client.pending(), 0u);
}

TEST(ReviewIpc, GivesUpOnAMissingPanelAtTheTimeoutNamingTheSocket) {
    IpcFixture f;
    IpcClient client(f.io.get_executor(), f.client_options(milliseconds(300)));
    run(f.io, [&]() -> asio::awaitable<void> {
        auto started = std::chrono::steady_clock::now();
        auto outcome = co_await client.request("present-review", review_payload());
        auto took = std::chrono::steady_clock::now() - started;
        EXPECT_EQ(outcome.kind, IpcOutcome::Kind::unreachable);
        EXPECT_EQ(outcome.socket, f.path);
        EXPECT_LT(took, milliseconds(600));
    });
    IpcClientOptions nowhere;
    nowhere.locate = [] { return SocketCandidates{{}, "DIALECTIC_IPC_PATH is not set"}; };
    nowhere.timeout = milliseconds(200);
    IpcClient lost(f.io.get_executor(), nowhere);
    run(f.io, [&]() -> asio::awaitable<void> {
        auto outcome = co_await lost.request("present-review", review_payload());
        EXPECT_EQ(outcome.kind, IpcOutcome::Kind::no_panel);
        EXPECT_EQ(outcome.error, "DIALECTIC_IPC_PATH is not set");
    });
}

TEST(ReviewIpc, APeerThatNeverAnswersTimesOutAndLeavesNothingPending) {
    IpcFixture f;
    local::acceptor acceptor(f.io, local::endpoint(f.path));
    IpcClient client(f.io.get_executor(), f.client_options(milliseconds(300)));
    run(f.io, [&]() -> asio::awaitable<void> {
        asio::co_spawn(f.io, misbehaving_peer(acceptor, false), asio::detached);
        auto outcome = co_await client.request("present-review", review_payload());
        EXPECT_EQ(outcome.kind, IpcOutcome::Kind::timed_out);
        EXPECT_EQ(client.pending(), 0u);
    });
}

TEST(ReviewIpc, ACancelledCallEndsAtOnceAndLeavesNothingPending) {
    IpcFixture f;
    local::acceptor acceptor(f.io, local::endpoint(f.path));
    IpcClient client(f.io.get_executor(), f.client_options(milliseconds(3000)));
    mcp::CancellationSource cancellation;
    run(f.io, [&]() -> asio::awaitable<void> {
        asio::co_spawn(f.io, misbehaving_peer(acceptor, false), asio::detached);
        asio::co_spawn(f.io, [&]() -> asio::awaitable<void> {
            co_await sleep_for(milliseconds(100));
            cancellation.cancel("the client gave up");
        }, asio::detached);
        auto token = cancellation.token();
        auto started = std::chrono::steady_clock::now();
        auto outcome = co_await client.request("present-review", review_payload(), &token);
        EXPECT_EQ(outcome.kind, IpcOutcome::Kind::cancelled);
        EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(1000));
        EXPECT_EQ(client.pending(), 0u);
    });
}

TEST(ReviewIpc, APanelKilledMidCallFailsAtOnceAndTheNextCallReconnects) {
    IpcFixture f;
    auto acceptor = std::make_unique<local::acceptor>(f.io, local::endpoint(f.path));
    IpcClient client(f.io.get_executor(), f.client_options(milliseconds(3000)));
    run(f.io, [&]() -> asio::awaitable<void> {
        asio::co_spawn(f.io, misbehaving_peer(*acceptor, true), asio::detached);
        auto started = std::chrono::steady_clock::now();
        auto outcome = co_await client.request("present-review", review_payload());
        EXPECT_EQ(outcome.kind, IpcOutcome::Kind::connection_lost);
        EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(1000));  // not the 3 s timeout
        EXPECT_EQ(client.pending(), 0u);
        EXPECT_FALSE(client.connected());
        acceptor.reset();
        std::filesystem::remove(f.path);
        IpcServer restarted(f.io.get_executor(), f.path, f.handler);
        restarted.start();
        auto again = co_await client.request("present-review", review_payload());
        EXPECT_EQ(again.kind, IpcOutcome::Kind::answered);
        EXPECT_TRUE(again.success);
        restarted.stop();
    });
}

TEST(ReviewIpc, ServerRefusesToStealALiveSocketButReplacesAStaleOne) {
    IpcFixture f;
    IpcServer first(f.io.get_executor(), f.path, f.handler);
    first.start();
    IpcServer second(f.io.get_executor(), f.path, f.handler);
    EXPECT_THROW(second.start(), std::runtime_error);
    EXPECT_EQ(std::filesystem::status(f.path).permissions() & std::filesystem::perms::all,
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    {
        local::acceptor stale(f.io, local::endpoint(f.path + ".stale"));
    }  // closed: the file stays behind, as after a crash
    IpcServer third(f.io.get_executor(), f.path + ".stale", f.handler);
    EXPECT_NO_THROW(third.start());
    third.stop();
}

TEST(ReviewIpc, AnswerLineHandlesEveryKindOfBadMessage) {
    IpcServer::Handler handler = [](std::string_view, const json::object&) { return IpcReply{}; };
    auto error_of = [&](std::string_view line) {
        auto reply = json::parse(answer_line(line, handler)).as_object();
        EXPECT_EQ(reply.at("success"), false) << line;
        return std::string(reply.at("error").as_string());
    };
    EXPECT_EQ(answer_line("{nope", handler), R"({"id":"unknown","success":false,"error":"Invalid JSON message"})");
    EXPECT_NE(error_of("[1]").find("expected a JSON object"), std::string::npos);
    EXPECT_NE(error_of(R"({"type":"x"})").find("\"id\" must be a string"), std::string::npos);
    EXPECT_NE(error_of(R"({"id":"a"})").find("\"type\" must be a string"), std::string::npos);
    EXPECT_NE(error_of(R"({"id":"a","type":"t","payload":3})").find("\"payload\" must be an object"), std::string::npos);
    EXPECT_EQ(answer_line("{\"id\":\"a\",\"type\":\"t\",\"payload\":{}}\r", handler), R"({"id":"a","success":true})");
}
