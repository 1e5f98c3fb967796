// Protocol 2026-07-28 on a connection: per-request _meta, server/discover, resultType, cache
// hints, input_required, subscriptions/listen, and the era's error codes. Raw frames where the
// exact wire matters; the Client where the round trip matters.

#include "ServerClientFixture.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

using namespace mcp;
using namespace mcp::testing;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

const char* meta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                   R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}})";

std::string request(int id, std::string_view method, std::string_view params_without_meta = "") {
    std::string params = "{" + std::string(meta);
    if (!params_without_meta.empty()) params += "," + std::string(params_without_meta);
    params += "}";
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) +
           R"(","params":)" + params + "}";
}

struct RawPeer {
    ServerClientFixture f;
    RawPeer() {
        f.server.add_tool(Tool{.name = "hello", .description = "asks a name"}, [](ToolCall& call) -> Outcome<CallToolResult> {
            auto* answer = call.input_response("name");
            if (!answer) return InputRequired{}.elicit("name", "Name?", schema_object({{"name", {{"type", "string"}}}}));
            return CallToolResult::text("Hello, " + std::string(answer->at("content").at("name").as_string()));
        });
        f.server.add_resource(Resource{.uri = "test://r", .name = "r"}, [](ResourceRead& read) {
            return ReadResourceResult{{ResourceContents::of_text(read.uri, "text/plain", "R")}};
        });
        asio::co_spawn(f.io, f.server.serve(f.server_side), asio::detached);
    }
    void send(const std::string& frame) { f.client_side->send(frame); }
    asio::awaitable<json::value> receive() {
        jsonrpc::ChannelRead read = co_await f.client_side->read();
        EXPECT_EQ(read.kind, jsonrpc::ChannelRead::Kind::message);
        co_return json::parse(read.text);
    }
    asio::awaitable<json::value> ask(const std::string& frame) {
        send(frame);
        co_return co_await receive();
    }
};

}  // namespace

TEST(StatelessEra, DiscoverNamesTheVersionCapabilitiesAndServer) {
    RawPeer peer;
    run(peer.f.io, [&]() -> asio::awaitable<void> {
        json::value answer = co_await peer.ask(request(1, "server/discover"));
        const auto& result = answer.at("result");
        EXPECT_EQ(result.at("resultType"), json::value("complete"));
        EXPECT_EQ(result.at("supportedVersions").at(0), json::value("2026-07-28"));
        EXPECT_TRUE(result.at("capabilities").as_object().contains("tools"));
        EXPECT_TRUE(result.as_object().contains("ttlMs"));
        EXPECT_EQ(result.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name"), json::value("test-server"));
    });
}

TEST(StatelessEra, RejectsMissingMetaUnknownVersionsAndRemovedMethods) {
    RawPeer peer;
    run(peer.f.io, [&]() -> asio::awaitable<void> {
        json::value missing = co_await peer.ask(R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}})");
        EXPECT_EQ(missing.at("error").at("code"), json::value(-32602));
        json::value no_capabilities = co_await peer.ask(
            R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
        EXPECT_EQ(no_capabilities.at("error").at("code"), json::value(-32602));
        EXPECT_NE(no_capabilities.at("error").at("message").as_string().find("clientCapabilities"), json::string::npos);
        json::value version = co_await peer.ask(
            R"({"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999","io.modelcontextprotocol/clientCapabilities":{}}}})");
        EXPECT_EQ(version.at("error").at("code"), json::value(-32022));
        EXPECT_EQ(version.at("error").at("data").at("requested"), json::value("v999"));
        EXPECT_EQ(version.at("error").at("data").at("supported").at(0), json::value("2026-07-28"));
        for (const char* removed : {"initialize", "ping", "logging/setLevel", "resources/subscribe", "unknown/method"}) {
            json::value answer = co_await peer.ask(request(4, removed));
            EXPECT_EQ(answer.at("error").at("code"), json::value(-32601)) << removed;
            EXPECT_EQ(answer.at("id"), json::value(4));
        }
        json::value not_found = co_await peer.ask(request(5, "resources/read", R"("uri":"test://missing")"));
        EXPECT_EQ(not_found.at("error").at("code"), json::value(-32602));
        EXPECT_EQ(not_found.at("error").at("data").at("uri"), json::value("test://missing"));
    });
}

TEST(StatelessEra, ResultsCarryTypeAndCacheHintsAndInputRequestsGoBackRaw) {
    RawPeer peer;
    run(peer.f.io, [&]() -> asio::awaitable<void> {
        json::value list = co_await peer.ask(request(1, "tools/list"));
        EXPECT_EQ(list.at("result").at("resultType"), json::value("complete"));
        EXPECT_TRUE(list.at("result").as_object().contains("ttlMs"));
        EXPECT_TRUE(list.at("result").as_object().contains("cacheScope"));
        json::value read = co_await peer.ask(request(2, "resources/read", R"("uri":"test://r")"));
        EXPECT_EQ(read.at("result").at("contents").at(0).at("text"), json::value("R"));
        EXPECT_TRUE(read.at("result").as_object().contains("cacheScope"));

        json::value first = co_await peer.ask(request(3, "tools/call", R"("name":"hello","arguments":{})"));
        EXPECT_EQ(first.at("result").at("resultType"), json::value("input_required"));
        EXPECT_EQ(first.at("result").at("inputRequests").at("name").at("method"), json::value("elicitation/create"));
        EXPECT_FALSE(first.at("result").as_object().contains("ttlMs"));
        json::value second = co_await peer.ask(request(
            4, "tools/call",
            R"("name":"hello","arguments":{},"inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}})"));
        EXPECT_EQ(second.at("result").at("content").at(0).at("text"), json::value("Hello, Ada"));
        json::value garbage = co_await peer.ask(request(5, "tools/call", R"("name":"hello","inputResponses":null)"));
        EXPECT_EQ(garbage.at("result").at("resultType"), json::value("input_required"));
        json::value bad = co_await peer.ask(request(6, "tools/call", R"("name":"hello","inputResponses":{"name":7})"));
        EXPECT_EQ(bad.at("error").at("code"), json::value(-32602));
    });
}

TEST(StatelessEra, ListenAcknowledgesTagsAndFiltersNotifications) {
    RawPeer peer;
    run(peer.f.io, [&]() -> asio::awaitable<void> {
        json::value ack = co_await peer.ask(request(9, "subscriptions/listen", R"("notifications":{"promptsListChanged":true,"toolsListChanged":true,"resourceSubscriptions":["test://r"]})"));
        CO_ASSERT_TRUE(ack.as_object().contains("method"));
        EXPECT_EQ(ack.at("method"), json::value("notifications/subscriptions/acknowledged")) << json::serialize(ack);
        EXPECT_EQ(ack.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), json::value(9));
        // No prompts are registered, so that part of the filter is not honoured.
        EXPECT_FALSE(ack.at("params").at("notifications").as_object().contains("promptsListChanged"));
        peer.f.server.add_tool(Tool{.name = "new_tool", .description = "d"}, [](ToolCall&) { return CallToolResult::text("x"); });
        json::value changed = co_await peer.receive();
        EXPECT_EQ(changed.at("method"), json::value("notifications/tools/list_changed"));
        EXPECT_EQ(changed.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), json::value(9));
        peer.f.server.notify_resource_updated("test://r");
        json::value updated = co_await peer.receive();
        EXPECT_EQ(updated.at("params").at("uri"), json::value("test://r"));
        // Cancelling the listen ends it without a reply; the connection goes on.
        peer.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}})");
        json::value ten = co_await peer.ask(request(10, "tools/list"));
        EXPECT_EQ(ten.at("id"), json::value(10)) << json::serialize(ten);
        peer.f.server.notify_resource_updated("test://r");  // nobody listens any more
        json::value next = co_await peer.ask(request(11, "tools/list"));
        EXPECT_EQ(next.at("id"), json::value(11)) << json::serialize(next);
    });
}

TEST(StatelessEra, TheClientSpeaksItAndAnswersInputRequests) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "hello", .description = "asks a name"}, [](ToolCall& call) -> Outcome<CallToolResult> {
        EXPECT_TRUE(call.stateless());
        auto* answer = call.input_response("name");
        if (!answer) return InputRequired{}.elicit("name", "Name?", schema_object({})).state("s1");
        EXPECT_EQ(call.request_state(), "s1");
        return CallToolResult::text("Hello, " + std::string(answer->at("content").at("name").as_string()));
    });
    ClientOptions options;
    options.protocol_version = "2026-07-28";
    options.on_elicitation = [](const json::object&, const ServerRequestContext& context) -> asio::awaitable<json::object> {
        // The question came in the call's own answer: the handler knows whose call it was.
        const auto* caller = std::any_cast<std::string>(&context.caller);
        EXPECT_TRUE(caller && *caller == "conversation-7");
        co_return json::object{{"action", "accept"}, {"content", {{"name", "Grace"}}}};
    };
    f.with_client(options, [&](Client& client) -> asio::awaitable<void> {
        EXPECT_TRUE(client.stateless());
        EXPECT_EQ(client.server_info().name, "test-server");
        RequestOptions call_options;
        call_options.caller = std::string("conversation-7");
        auto result = co_await client.call_tool("hello", {}, call_options);
        EXPECT_EQ(result.content.at(0).json.at("text"), json::value("Hello, Grace"));
    });
}

TEST(StatelessEra, AutoFallsBackToInitializeAgainstA2025OnlyPeer) {
    // Our server speaks both; "auto" must pick 2026-07-28 against it.
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "t", .description = "d"}, [](ToolCall&) { return CallToolResult::text("x"); });
    ClientOptions options;
    options.protocol_version = "auto";
    f.with_client(options, [&](Client& client) -> asio::awaitable<void> {
        EXPECT_EQ(client.protocol_version(), "2026-07-28");
        EXPECT_EQ((co_await client.list_tools()).size(), 1u);
    });
}

TEST(StatelessEra, RequestsBeforeInitializeWithoutMetaAreRefusedClearly) {
    RawPeer peer;
    run(peer.f.io, [&]() -> asio::awaitable<void> {
        json::value refused = co_await peer.ask(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
        EXPECT_EQ(refused.at("error").at("code"), json::value(-32602));
        EXPECT_NE(refused.at("error").at("message").as_string().find("initialize"), json::string::npos);
        json::value ping = co_await peer.ask(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
        EXPECT_TRUE(ping.at("result").is_object());
    });
}

TEST(StatelessEra, UrlElicitationIsAnInputRequestInUrlMode) {
    InputRequired input;
    input.elicit_url("consent", "Sign in to continue", "https://example.com/consent");
    json::object request = input.to_json().at("inputRequests").at("consent").as_object();
    EXPECT_EQ(request.at("method"), json::value("elicitation/create"));
    EXPECT_EQ(request.at("params").at("mode"), json::value("url"));
    EXPECT_EQ(request.at("params").at("url"), json::value("https://example.com/consent"));
}
