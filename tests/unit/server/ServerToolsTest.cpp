// Tools through the public Server and Client APIs: registration, validation, handler kinds,
// errors, progress, logging and cancellation.

#include "ServerClientFixture.hpp"

#include <boost/json/parse.hpp>

#include <atomic>
#include <thread>

using namespace mcp;
using namespace mcp::testing;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

Tool echo_tool() {
    return Tool{.name = "echo",
                .description = "Echoes text",
                .input_schema = schema_object({{"text", {{"type", "string"}}}}, {"text"})};
}

CallToolResult echo(ToolCall& call) { return CallToolResult::text(call.arguments.at("text").as_string()); }

std::string first_text(const CallToolResult& result) {
    return result.content.empty() ? std::string() : std::string(result.content[0].json.at("text").as_string());
}

}  // namespace

TEST(ServerTools, ListsToolsInRegistrationOrderAndCallsThem) {
    ServerClientFixture f;
    f.server.add_tool(echo_tool(), echo);
    f.server.add_tool(Tool{.name = "b_second", .description = "second"}, [](ToolCall&) { return CallToolResult::text("2"); });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        auto tools = co_await client.list_tools();
        CO_ASSERT_EQ(tools.size(), 2u);
        EXPECT_EQ(tools[0].name, "echo");
        EXPECT_EQ(tools[1].name, "b_second");
        EXPECT_EQ(tools[0].input_schema.at("required").as_array().at(0), json::value("text"));
        json::object arguments{{"text", "hello"}};  // built outside co_await (g++ 12 bug)
        auto result = co_await client.call_tool("echo", arguments);
        EXPECT_FALSE(result.is_error);
        EXPECT_EQ(first_text(result), "hello");
    });
}

TEST(ServerTools, InvalidArgumentsBecomeAToolErrorNamingTheField) {
    ServerClientFixture f;
    bool handler_ran = false;
    f.server.add_tool(echo_tool(), [&](ToolCall& call) {
        handler_ran = true;
        return echo(call);
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        json::object arguments{{"text", 42}};  // built outside co_await (g++ 12 bug)
        auto wrong_type = co_await client.call_tool("echo", arguments);
        EXPECT_TRUE(wrong_type.is_error);
        EXPECT_NE(first_text(wrong_type).find("text"), std::string::npos) << first_text(wrong_type);
        auto missing = co_await client.call_tool("echo", {});
        EXPECT_TRUE(missing.is_error);
        EXPECT_NE(first_text(missing).find("text"), std::string::npos) << first_text(missing);
        EXPECT_FALSE(handler_ran);
    });
}

TEST(ServerTools, AToolMayAnswerInvalidArgumentsInItsOwnForm) {
    ServerClientFixture f;
    f.server.add_tool(echo_tool(), echo,
                      {.on_invalid_arguments = [](const json::object& arguments, const std::string& problem) {
                          CallToolResult result = CallToolResult::text("refused: " + problem);
                          result.structured_content =
                              json::object{{"code", 400}, {"problem", problem}, {"given", arguments}};
                          return result;  // not marked as an error: the server marks it
                      }});
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        json::object arguments{{"text", 42}};  // built outside co_await (g++ 12 bug)
        auto refused = co_await client.call_tool("echo", arguments);
        EXPECT_TRUE(refused.is_error);
        EXPECT_EQ(first_text(refused), "refused: /text: expected string, got integer");
        CO_ASSERT_TRUE(refused.structured_content.has_value());
        EXPECT_EQ(refused.structured_content->at("problem"), json::value("/text: expected string, got integer"));
        EXPECT_EQ(refused.structured_content->at("given"), json::value(arguments)) << "the arguments as they came";
    });
}

TEST(ServerTools, SchemaErrorsSayWhatTheFieldMustBe) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "paint",
                           .description = "enum and type",
                           .input_schema = schema_object({{"colour", {{"type", "string"}, {"enum", json::array{"red", "blue"}}}},
                                                          {"coats", {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}}},
                                                          {"thickness", {{"type", "number"}, {"maximum", 0.25}}},
                                                          {"gloss", {{"enum", json::array{0.5, 1.0}}}},
                                                          {"layers", {{"type", "array"}, {"items", {{"type", "object"}}}}}})},
                      [](ToolCall&) { return CallToolResult::text("painted"); });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        json::object wrong_colour{{"colour", "green"}};
        EXPECT_EQ(first_text(co_await client.call_tool("paint", wrong_colour)),
                  "Invalid arguments for tool paint: [colour]: must be one of \"red\", \"blue\"");
        json::object wrong_gloss{{"gloss", 0.7}};
        EXPECT_EQ(first_text(co_await client.call_tool("paint", wrong_gloss)),
                  "Invalid arguments for tool paint: [gloss]: must be one of 0.5, 1");
        json::object wrong_coats{{"coats", "two"}};
        EXPECT_EQ(first_text(co_await client.call_tool("paint", wrong_coats)),
                  "Invalid arguments for tool paint: [coats]: must be an integer");
        // Limits read as JSON writes numbers ("1000", "0.25"), not as printf does ("1000.000000").
        json::object too_many{{"coats", 1001}};
        std::string too_many_text = first_text(co_await client.call_tool("paint", too_many));
        EXPECT_NE(too_many_text.find("[coats]: "), std::string::npos) << too_many_text;
        EXPECT_NE(too_many_text.find(" 1000"), std::string::npos) << too_many_text;
        EXPECT_EQ(too_many_text.find("1000.0"), std::string::npos) << too_many_text;
        json::object too_thick{{"thickness", 0.5}};
        std::string too_thick_text = first_text(co_await client.call_tool("paint", too_thick));
        EXPECT_NE(too_thick_text.find(" 0.25"), std::string::npos) << too_thick_text;
        EXPECT_EQ(too_thick_text.find("0.250000"), std::string::npos) << too_thick_text;
        json::object wrong_layer{{"layers", json::array{json::object{}, 3}}};
        EXPECT_EQ(first_text(co_await client.call_tool("paint", wrong_layer)),
                  "Invalid arguments for tool paint: [layers][1]: must be an object");
    });
}

TEST(ServerTools, UnknownToolIsAProtocolErrorAndThrowingHandlersAreToolErrors) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "broken", .description = "throws"},
                      [](ToolCall&) -> CallToolResult { throw std::runtime_error("disk on fire"); });
    f.server.add_tool(Tool{.name = "refuses", .description = "protocol error"},
                      [](ToolCall&) -> CallToolResult { throw Error::invalid_params("no way"); });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        auto broken = co_await client.call_tool("broken");
        EXPECT_TRUE(broken.is_error);
        EXPECT_EQ(first_text(broken), "disk on fire");
        std::exception_ptr unknown;
        try {
            co_await client.call_tool("missing");
        } catch (...) {
            unknown = std::current_exception();
        }
        EXPECT_EQ(error_code_of(unknown), jsonrpc::error_code::invalid_params);
        std::exception_ptr refused;
        try {
            co_await client.call_tool("refuses");
        } catch (...) {
            refused = std::current_exception();
        }
        EXPECT_EQ(error_code_of(refused), jsonrpc::error_code::invalid_params);
    });
}

TEST(ServerTools, RegistrationMistakesThrowAtOnce) {
    Server server(Implementation{"s", "1"});
    server.add_tool(echo_tool(), echo);
    EXPECT_THROW(server.add_tool(echo_tool(), echo), std::invalid_argument);
    EXPECT_THROW(server.add_tool(Tool{.name = "has space", .description = "x"}, echo), std::invalid_argument);
    EXPECT_THROW(server.add_tool(Tool{.name = "", .description = "x"}, echo), std::invalid_argument);
    EXPECT_THROW(server.add_tool(Tool{.name = "arr", .description = "x", .input_schema = {{"type", "array"}}}, echo),
                 std::invalid_argument);
}

TEST(ServerTools, StructuredOutputIsCheckedAgainstTheOutputSchema) {
    ServerClientFixture f;
    json::object output = schema_object({{"sum", {{"type", "number"}}}}, {"sum"});
    f.server.add_tool(Tool{.name = "add", .description = "adds", .output_schema = output}, [](ToolCall& call) {
        double a = call.arguments.contains("a") ? call.arguments.at("a").to_number<double>() : 0;
        return CallToolResult::structured(json::object{{"sum", a + 1}});
    });
    f.server.add_tool(Tool{.name = "liar", .description = "breaks its schema", .output_schema = output},
                      [](ToolCall&) { return CallToolResult::structured(json::object{{"sum", "not a number"}}); });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        json::object arguments{{"a", 2}};  // built outside co_await (g++ 12 bug)
        auto result = co_await client.call_tool("add", arguments);
        CO_ASSERT_TRUE(result.structured_content);
        EXPECT_EQ(result.structured_content->at("sum").to_number<double>(), 3.0);
        EXPECT_EQ(json::parse(first_text(result)), *result.structured_content);
        std::exception_ptr broken;
        try {
            co_await client.call_tool("liar");
        } catch (...) {
            broken = std::current_exception();
        }
        EXPECT_EQ(error_code_of(broken), jsonrpc::error_code::internal_error);
    });
}

TEST(ServerTools, CoroutineAndBlockingHandlersRunConcurrently) {
    ServerClientFixture f;
    std::atomic<std::thread::id> blocking_thread;
    f.server.add_tool(Tool{.name = "slow_blocking", .description = "sleeps on a worker"},
                      [&](ToolCall&) {
                          blocking_thread = std::this_thread::get_id();
                          std::this_thread::sleep_for(std::chrono::milliseconds(150));
                          return CallToolResult::text("done");
                      },
                      ToolOptions{.blocking = true});
    f.server.add_tool(Tool{.name = "fast_coroutine", .description = "yields"},
                      [](ToolCall&) -> asio::awaitable<CallToolResult> {
                          co_await sleep_for(std::chrono::milliseconds(10));
                          co_return CallToolResult::text("fast");
                      });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        bool slow_done = false;
        auto slow = [&]() -> asio::awaitable<void> {
            co_await client.call_tool("slow_blocking");
            slow_done = true;
        };
        asio::co_spawn(co_await asio::this_coro::executor, slow(), asio::detached);
        co_await sleep_for(std::chrono::milliseconds(20));
        auto fast = co_await client.call_tool("fast_coroutine");
        EXPECT_EQ(first_text(fast), "fast");
        EXPECT_FALSE(slow_done) << "the blocking handler held up the I/O thread";
        while (!slow_done) co_await sleep_for(std::chrono::milliseconds(10));
        EXPECT_NE(blocking_thread.load(), std::this_thread::get_id());
    });
}

TEST(ServerTools, ProgressReachesTheCallerAndLogsFollowTheLevel) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "work", .description = "reports"}, [](ToolCall& call) -> asio::awaitable<CallToolResult> {
        for (int step = 1; step <= 3; ++step) {
            call.progress(step, 3, "step " + std::to_string(step));
            call.log(LoggingLevel::debug, "debug detail");
            call.log(LoggingLevel::warning, "warning " + std::to_string(step));
            co_await sleep_for(std::chrono::milliseconds(5));
        }
        co_return CallToolResult::text(call.wants_progress() ? "with progress" : "without");
    });
    std::vector<std::string> logs;
    ClientOptions options;
    options.on_notification = [&](std::string_view method, const json::value& params) {
        if (method == "notifications/message") logs.emplace_back(params.at("data").as_string());
    };
    f.with_client(options, [&](Client& client) -> asio::awaitable<void> {
        co_await client.set_logging_level("warning");
        std::vector<double> seen;
        RequestOptions request;
        request.on_progress = [&](double progress, std::optional<double> total, const std::string& message) {
            seen.push_back(progress);
            EXPECT_EQ(total, 3.0);
            EXPECT_EQ(message, "step " + std::to_string(static_cast<int>(progress)));
        };
        auto result = co_await client.call_tool("work", {}, request);
        EXPECT_EQ(first_text(result), "with progress");
        EXPECT_EQ(seen, (std::vector<double>{1, 2, 3}));
        EXPECT_EQ(logs, (std::vector<std::string>{"warning 1", "warning 2", "warning 3"}));
    });
}

TEST(ServerTools, ClientCancellationStopsTheHandler) {
    ServerClientFixture f;
    bool saw_cancel = false;
    f.server.add_tool(Tool{.name = "forever", .description = "waits"}, [&](ToolCall& call) -> asio::awaitable<CallToolResult> {
        for (int i = 0; i < 200 && !call.cancelled(); ++i) co_await sleep_for(std::chrono::milliseconds(5));
        saw_cancel = call.cancelled();
        co_return CallToolResult::text("stopped");
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        CancellationSource source;
        auto cancel = [&]() -> asio::awaitable<void> {
            co_await sleep_for(std::chrono::milliseconds(30));
            source.cancel("changed my mind");
        };
        asio::co_spawn(co_await asio::this_coro::executor, cancel(), asio::detached);
        RequestOptions request;
        request.cancellation = source.token();
        std::exception_ptr outcome;
        try {
            co_await client.call_tool("forever", {}, request);
        } catch (...) {
            outcome = std::current_exception();
        }
        EXPECT_EQ(error_code_of(outcome), jsonrpc::error_code::request_cancelled);
        co_await sleep_for(std::chrono::milliseconds(30));
        EXPECT_TRUE(saw_cancel);
        co_await client.ping();  // the connection is still fine
    });
}

TEST(ServerTools, AProgressTokenOfMoreThanAKilobyteIsRefusedNamingTheField) {
    ServerClientFixture f;
    f.server.add_tool(echo_tool(), echo);
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        auto call_with_token = [&](std::size_t length) -> asio::awaitable<json::object> {
            json::object params{{"name", "echo"}, {"arguments", {{"text", "hi"}}}};
            params["_meta"] = json::object{{"progressToken", std::string(length, 'p')}};
            co_return co_await client.request("tools/call", params);
        };
        auto accepted = co_await call_with_token(1024);
        EXPECT_EQ(accepted.at("content").as_array().at(0).at("text").as_string(), "hi");
        std::exception_ptr refused;
        try {
            co_await call_with_token(1025);
        } catch (...) {
            refused = std::current_exception();
        }
        EXPECT_TRUE(refused) << "a 1025-byte progressToken was accepted";
        if (!refused) co_return;
        EXPECT_EQ(error_code_of(refused), jsonrpc::error_code::invalid_params);
        try {
            std::rethrow_exception(refused);
        } catch (const std::exception& e) {
            EXPECT_NE(std::string(e.what()).find("_meta.progressToken"), std::string::npos) << e.what();
        }
    });
}
