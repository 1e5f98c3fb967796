// The Client API against a real Server over memory transports: what initialize told it, lists that
// span pages, timeouts, notifications, prompts and completion.

#include "server/ServerClientFixture.hpp"

#include <boost/json/parse.hpp>

using namespace mcp;
using namespace mcp::testing;
namespace asio = boost::asio;
namespace json = boost::json;

TEST(Client, KnowsTheServerAfterInitialize) {
    ServerClientFixture f({.instructions = "Call echo first."});
    f.server.add_tool(Tool{.name = "echo"}, [](ToolCall&) { return CallToolResult::text("x"); });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        EXPECT_EQ(client.protocol_version(), "2025-11-25");
        EXPECT_FALSE(client.stateless());
        EXPECT_EQ(client.server_info().name, "test-server");
        EXPECT_EQ(client.server_info().version, "1.2.3");
        EXPECT_EQ(client.instructions(), std::optional<std::string>("Call echo first."));
        EXPECT_TRUE(client.server_capabilities().contains("tools"));
        co_await client.ping();
    });
}

namespace {
/// 40 tools of about 10 KB each, two to a page: about 400 KB in all.
void add_wordy_tools(ServerClientFixture& f) {
    for (int i = 0; i < 40; ++i)
        f.server.add_tool(Tool{.name = "tool" + std::to_string(i), .description = std::string(10000, 'd')},
                          [](ToolCall&) { return CallToolResult::text("x"); });
}
}  // namespace

TEST(Client, RefusesAListThatOutgrowsMaxListBytes) {
    ServerClientFixture f({.page_size = 2});
    add_wordy_tools(f);
    ClientOptions small;
    small.max_list_bytes = 100000;
    f.with_client(small, [&](Client& client) -> asio::awaitable<void> {
        std::string failure;
        try {
            co_await client.list_tools();
        } catch (const Error& e) {
            failure = e.what();
        }
        EXPECT_NE(failure.find("max_list_bytes"), std::string::npos) << failure;
        EXPECT_NE(failure.find("tools/list"), std::string::npos) << failure;
    });
}

TEST(Client, KeepsAListWithinMaxListBytes) {
    ServerClientFixture f({.page_size = 2});
    add_wordy_tools(f);
    ClientOptions ample;
    ample.max_list_bytes = 1000000;
    f.with_client(ample, [&](Client& client) -> asio::awaitable<void> {
        EXPECT_EQ((co_await client.list_tools()).size(), 40u);
    });
}

TEST(Client, ListsFollowCursorsAcrossPages) {
    ServerClientFixture f({.page_size = 2});
    for (int i = 0; i < 5; ++i)
        f.server.add_tool(Tool{.name = "tool" + std::to_string(i)}, [](ToolCall&) { return CallToolResult::text("x"); });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        auto tools = co_await client.list_tools();
        CO_ASSERT_EQ(tools.size(), 5u);
        for (int i = 0; i < 5; ++i) EXPECT_EQ(tools[static_cast<std::size_t>(i)].name, "tool" + std::to_string(i));
        // One page by hand: the server pages, the client's list_tools followed the cursor.
        auto first_page = co_await client.request("tools/list");
        EXPECT_EQ(first_page.at("tools").as_array().size(), 2u);
        EXPECT_TRUE(first_page.contains("nextCursor"));
    });
}

TEST(Client, ARequestPastItsTimeoutFailsAndTheSessionGoesOn) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "slow"}, [](ToolCall& call) -> asio::awaitable<CallToolResult> {
        for (int i = 0; i < 400 && !call.cancelled(); ++i) co_await sleep_for(std::chrono::milliseconds(5));
        co_return CallToolResult::text("late");
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        RequestOptions options;
        options.timeout = std::chrono::milliseconds(30);
        std::exception_ptr outcome;
        try {
            co_await client.call_tool("slow", {}, options);
        } catch (...) {
            outcome = std::current_exception();
        }
        EXPECT_TRUE(outcome) << "a 2 s call answered within a 30 ms timeout";
        EXPECT_NE(error_code_of(outcome), 0);
        co_await client.ping();
    });
}

TEST(Client, NotificationsReachTheHandlerAndLevelsFilterLogs) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "chatty"}, [](ToolCall& call) {
        call.log(LoggingLevel::debug, "too fine");
        call.log(LoggingLevel::warning, "worth saying");
        return CallToolResult::text("done");
    });
    std::vector<std::string> logs;
    ClientOptions options;
    options.on_notification = [&](std::string_view method, const json::value& params) {
        if (method == "notifications/message") logs.emplace_back(params.at("data").as_string());
    };
    f.with_client(options, [&](Client& client) -> asio::awaitable<void> {
        co_await client.set_logging_level("info");
        co_await client.call_tool("chatty");
        co_await client.ping();  // the notifications came before the answer; ping flushes nothing else
    });
    EXPECT_EQ(logs, std::vector<std::string>{"worth saying"});
}

TEST(Client, PromptsAndCompletionComeBackAsTheServerWroteThem) {
    ServerClientFixture f;
    f.server.add_prompt(Prompt{.name = "greet", .arguments = {PromptArgument{.name = "who", .required = true}}},
                        [](PromptGet& request) {
                            return GetPromptResult{
                                .messages = {PromptMessage{"user", Content::text("Hello, " + request.arguments.at("who"))}}};
                        });
    f.server.add_completion("ref/prompt", "greet", [](CompletionRequest& request) {
        Completion completion;
        for (std::string_view name : {"Ada", "Alan", "Grace"})
            if (name.starts_with(request.value)) completion.values.emplace_back(name);
        return completion;
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        json::object who{{"who", "Ada"}};
        auto prompt = co_await client.get_prompt("greet", who);
        CO_ASSERT_EQ(prompt.messages.size(), 1u);
        EXPECT_EQ(prompt.messages[0].content.json.at("text"), "Hello, Ada");
        auto completion = co_await client.complete("ref/prompt", "greet", "who", "A");
        EXPECT_EQ(completion.values, (std::vector<std::string>{"Ada", "Alan"}));
        EXPECT_FALSE(completion.has_more);
        std::exception_ptr missing;
        try {
            co_await client.get_prompt("greet");
        } catch (...) {
            missing = std::current_exception();
        }
        EXPECT_EQ(error_code_of(missing), jsonrpc::error_code::invalid_params);
    });
}
