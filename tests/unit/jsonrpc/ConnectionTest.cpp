// The JSON-RPC engine against a raw peer: the test writes frames by hand and reads the answers.

#include "mcp/jsonrpc/Connection.hpp"

#include "TestSupport.hpp"
#include "mcp/jsonrpc/ErrorCodes.hpp"
#include "mcp/transport/MemoryTransport.hpp"

#include <boost/asio/detached.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

using namespace mcp;
using namespace mcp::jsonrpc;
using mcp::testing::run;
using mcp::testing::sleep_for;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// Answers "echo" with its params after params.delay_ms; "fail" with an error; counts notifications.
class EchoDispatcher : public Dispatcher {
public:
    asio::awaitable<Reply> handle_request(InboundRequest& request) override {
        if (request.method == "fail") co_return Reply::failure(-32000, "failed on purpose");
        if (request.method == "throw") throw std::runtime_error("boom");
        if (request.method != "echo") co_return Reply::failure(error_code::method_not_found, "no " + request.method);
        if (auto* delay = request.params.as_object().if_contains("delay_ms"))
            co_await sleep_for(std::chrono::milliseconds(delay->as_int64()));
        if (request.cancellation.cancelled()) ++cancelled_seen;
        co_return Reply::success(request.params);
    }
    void handle_notification(Notification& notification) override { notifications.push_back(notification.method); }
    std::vector<std::string> notifications;
    int cancelled_seen = 0;
};

struct Fixture {
    asio::io_context io;
    std::shared_ptr<Transport> peer;
    std::shared_ptr<EchoDispatcher> dispatcher = std::make_shared<EchoDispatcher>();
    std::shared_ptr<Connection> connection;
    std::vector<std::pair<RequestId, std::string>> abandoned;

    explicit Fixture(ConnectionOptions options = {}) {
        auto [ours, theirs] = make_memory_transports(io.get_executor());
        peer = theirs;
        options.on_request_abandoned = [this](const RequestId& id, const std::string& reason) {
            abandoned.emplace_back(id, reason);
        };
        connection = std::make_shared<Connection>(ours, dispatcher, options);
        asio::co_spawn(io, connection->run(), asio::detached);
    }
    void send(std::string_view frame) { peer->send(frame); }
    asio::awaitable<json::value> receive() {
        jsonrpc::ChannelRead read = co_await peer->read();
        EXPECT_EQ(read.kind, jsonrpc::ChannelRead::Kind::message);
        co_return json::parse(read.text);
    }
};

}  // namespace

TEST(Connection, AnswersRequestsOutOfOrderWithTheirIds) {
    Fixture f;
    run(f.io, [&]() -> asio::awaitable<void> {
        f.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"delay_ms":60}})");
        f.send(R"({"jsonrpc":"2.0","id":"two","method":"echo","params":{"delay_ms":0}})");
        f.send(R"({"jsonrpc":"2.0","id":3,"method":"echo","params":{"delay_ms":30}})");
        std::vector<json::value> ids;
        for (int i = 0; i < 3; ++i) ids.push_back((co_await f.receive()).at("id"));
        EXPECT_EQ(ids[0], json::value("two"));
        EXPECT_EQ(ids[1], json::value(3));
        EXPECT_EQ(ids[2], json::value(1));
    });
}

TEST(Connection, KeepsServingAfterGarbageAndReportsEachProblem) {
    Fixture f;
    run(f.io, [&]() -> asio::awaitable<void> {
        f.send("this is not json");
        f.send(R"({"jsonrpc":"2.0","id":5,"method":"echo","params":{"delay_ms":20}})");
        f.send(R"({"jsonrpc":"2.0","id":6,"method":42})");
        f.send(R"({"jsonrpc":"2.0","id":7,"method":"nope"})");
        f.send(R"({"jsonrpc":"2.0","id":8,"method":"throw"})");
        json::value parse_error = co_await f.receive();
        EXPECT_EQ(parse_error.at("error").at("code"), json::value(error_code::parse_error));
        EXPECT_TRUE(parse_error.at("id").is_null());
        json::value invalid = co_await f.receive();
        EXPECT_EQ(invalid.at("id"), json::value(6));
        EXPECT_EQ(invalid.at("error").at("code"), json::value(error_code::invalid_request));
        std::map<std::int64_t, json::value> rest;
        for (int i = 0; i < 3; ++i) {
            json::value v = co_await f.receive();
            rest[v.at("id").as_int64()] = v;
        }
        EXPECT_EQ(rest[7].at("error").at("code"), json::value(error_code::method_not_found));
        EXPECT_EQ(rest[8].at("error").at("code"), json::value(error_code::internal_error));
        EXPECT_EQ(rest[5].at("result").at("delay_ms"), json::value(20));
    });
}

TEST(Connection, RefusesADuplicateIdWhileTheFirstIsInFlight) {
    Fixture f;
    run(f.io, [&]() -> asio::awaitable<void> {
        f.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"delay_ms":50,"first":true}})");
        f.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"second":true}})");
        json::value duplicate = co_await f.receive();
        EXPECT_EQ(duplicate.at("error").at("code"), json::value(error_code::invalid_request));
        EXPECT_NE(duplicate.at("error").at("message").as_string().find("already in use"), json::string::npos);
        json::value original = co_await f.receive();
        EXPECT_EQ(original.at("result").at("first"), json::value(true));
        // Once answered, the id is free again.
        f.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"third":true}})");
        EXPECT_EQ((co_await f.receive()).at("result").at("third"), json::value(true));
    });
}

TEST(Connection, RefusesRequestsPastTheInFlightCapAndServesAgainOnceAnswered) {
    Fixture f(ConnectionOptions{.max_requests_in_flight = 2});
    run(f.io, [&]() -> asio::awaitable<void> {
        f.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"delay_ms":300}})");
        f.send(R"({"jsonrpc":"2.0","id":2,"method":"echo","params":{"delay_ms":300}})");
        f.send(R"({"jsonrpc":"2.0","id":3,"method":"echo","params":{"delay_ms":0}})");
        json::value refused = co_await f.receive();
        EXPECT_EQ(refused.at("id"), json::value(3));
        EXPECT_EQ(refused.at("error").at("code"), json::value(error_code::too_many_requests));
        EXPECT_NE(refused.at("error").at("message").as_string().find("in flight"), json::string::npos);
        EXPECT_TRUE((co_await f.receive()).as_object().contains("result"));
        EXPECT_TRUE((co_await f.receive()).as_object().contains("result"));
        // Once both are answered the cap is free again. A batch's members count one by one.
        f.connection->set_allow_batches(true);
        f.send(R"([{"jsonrpc":"2.0","id":4,"method":"echo","params":{"delay_ms":100}},)"
               R"({"jsonrpc":"2.0","id":5,"method":"echo","params":{"delay_ms":100}},)"
               R"({"jsonrpc":"2.0","id":6,"method":"echo","params":{"delay_ms":0}}])");
        json::value batch = co_await f.receive();
        CO_ASSERT_TRUE(batch.is_array());
        CO_ASSERT_EQ(batch.as_array().size(), 3u);
        std::map<std::int64_t, json::value> members;
        for (const auto& member : batch.as_array()) members[member.at("id").as_int64()] = member;
        EXPECT_TRUE(members[4].as_object().contains("result"));
        EXPECT_TRUE(members[5].as_object().contains("result"));
        EXPECT_EQ(members[6].at("error").at("code"), json::value(error_code::too_many_requests));
    });
}

TEST(Connection, RefusesBatchesUnlessAllowed) {
    Fixture f;
    run(f.io, [&]() -> asio::awaitable<void> {
        f.send(R"([{"jsonrpc":"2.0","id":1,"method":"echo","params":{}}])");
        json::value refused = co_await f.receive();
        EXPECT_EQ(refused.at("error").at("code"), json::value(error_code::invalid_request));
        f.connection->set_allow_batches(true);
        f.send(R"([{"jsonrpc":"2.0","id":1,"method":"echo","params":{"delay_ms":20}},)"
               R"({"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","id":2,"method":"fail"},{"oops":1}])");
        json::value answers = co_await f.receive();
        CO_ASSERT_TRUE(answers.is_array());
        EXPECT_EQ(answers.as_array().size(), 3u);  // two requests and one invalid member; no notification
        EXPECT_EQ(f.dispatcher->notifications, std::vector<std::string>{"note"});
        // A batch of notifications only gets no answer at all.
        f.send(R"([{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}])");
        f.send(R"({"jsonrpc":"2.0","id":3,"method":"echo","params":{}})");
        EXPECT_EQ((co_await f.receive()).at("id"), json::value(3));
    });
}

TEST(Connection, CorrelatesOurCallsAndTimesThemOut) {
    Fixture f(ConnectionOptions{.default_timeout = std::chrono::milliseconds(80)});
    run(f.io, [&]() -> asio::awaitable<void> {
        // The peer answers the second call first; each response reaches its own caller.
        auto answer_in_reverse = [&]() -> asio::awaitable<void> {
            json::value first = co_await f.receive();
            json::value second = co_await f.receive();
            for (const auto& request : {second, first}) {
                std::string reply = R"({"jsonrpc":"2.0","id":)" + json::serialize(request.at("id")) +
                                    R"(,"result":{"method":)" + json::serialize(request.at("method")) + "}}";
                f.send(reply);
            }
        };
        asio::co_spawn(f.io, answer_in_reverse(), asio::detached);
        Response a, b;
        auto call_a = [&]() -> asio::awaitable<void> { a = co_await f.connection->call("a", json::object()); };
        asio::co_spawn(f.io, call_a(), asio::detached);
        b = co_await f.connection->call("b", json::object());
        co_await sleep_for(std::chrono::milliseconds(5));
        EXPECT_EQ(a.result.at("method"), json::value("a"));
        EXPECT_EQ(b.result.at("method"), json::value("b"));

        Response silent = co_await f.connection->call("silent", json::object());
        CO_ASSERT_TRUE(silent.error);
        EXPECT_EQ(silent.error->code, error_code::request_timeout);
        CO_ASSERT_EQ(f.abandoned.size(), 1u);
        EXPECT_EQ(f.abandoned[0].first, silent.id);
    });
}

TEST(Connection, CancelsOurCallOnRequestAndIgnoresTheLateAnswer) {
    Fixture f;
    run(f.io, [&]() -> asio::awaitable<void> {
        CancellationSource source;
        auto cancel_soon = [&]() -> asio::awaitable<void> {
            co_await sleep_for(std::chrono::milliseconds(20));
            source.cancel("user pressed stop");
        };
        asio::co_spawn(f.io, cancel_soon(), asio::detached);
        CallOptions options;
        options.cancellation = source.token();
        Response response = co_await f.connection->call("slow", json::object(), options);
        CO_ASSERT_TRUE(response.error);
        EXPECT_EQ(response.error->code, error_code::request_cancelled);
        EXPECT_NE(response.error->message.find("user pressed stop"), std::string::npos);
        CO_ASSERT_EQ(f.abandoned.size(), 1u);
        json::value request = co_await f.receive();
        f.send(R"({"jsonrpc":"2.0","id":)" + json::serialize(request.at("id")) + R"(,"result":{}})");
        co_await sleep_for(std::chrono::milliseconds(10));
        EXPECT_FALSE(f.connection->is_pending(response.id));
    });
}

TEST(Connection, PeerCancellationSuppressesTheReply) {
    Fixture f;
    run(f.io, [&]() -> asio::awaitable<void> {
        f.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"delay_ms":40}})");
        co_await sleep_for(std::chrono::milliseconds(5));
        EXPECT_TRUE(f.connection->cancel_inbound(RequestId(1), "no longer needed"));
        f.send(R"({"jsonrpc":"2.0","id":2,"method":"echo","params":{"delay_ms":60}})");
        json::value next = co_await f.receive();
        EXPECT_EQ(next.at("id"), json::value(2));  // request 1 was never answered
        EXPECT_EQ(f.dispatcher->cancelled_seen, 1);
    });
}

TEST(Connection, FailsPendingCallsWhenThePeerGoesAway) {
    Fixture f;
    run(f.io, [&]() -> asio::awaitable<void> {
        auto close_soon = [&]() -> asio::awaitable<void> {
            co_await sleep_for(std::chrono::milliseconds(20));
            f.peer->close();
        };
        asio::co_spawn(f.io, close_soon(), asio::detached);
        Response response = co_await f.connection->call("never", json::object());
        CO_ASSERT_TRUE(response.error);
        EXPECT_EQ(response.error->code, error_code::connection_closed);
    });
}
