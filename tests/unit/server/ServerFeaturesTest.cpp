// Resources, templates, prompts, completion, pagination, change notifications and requests back
// to the client, through the public Server and Client APIs (2025 era).

#include "ServerClientFixture.hpp"
#include "mcp/protocol/ErrorCodes.hpp"

using namespace mcp;
using namespace mcp::testing;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

void add_resources(Server& server) {
    server.add_resource(Resource{.uri = "test://a", .name = "a", .mime_type = "text/plain"},
                        [](ResourceRead& read) { return ReadResourceResult{{ResourceContents::of_text(read.uri, "text/plain", "A")}}; });
    server.add_resource_template(ResourceTemplate{.uri_template = "test://items/{id}", .name = "item"}, [](ResourceRead& read) {
        return ReadResourceResult{{ResourceContents::of_text(read.uri, "application/json",
                                                             "{\"id\":\"" + read.variables.at("id") + "\"}")}};
    });
}

}  // namespace

TEST(ServerFeatures, ReadsResourcesAndTemplatesAndReportsMissingOnes) {
    ServerClientFixture f;
    add_resources(f.server);
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        auto resources = co_await client.list_resources();
        CO_ASSERT_EQ(resources.size(), 1u);
        EXPECT_EQ(resources[0].mime_type, "text/plain");
        auto templates = co_await client.list_resource_templates();
        CO_ASSERT_EQ(templates.size(), 1u);
        EXPECT_EQ((co_await client.read_resource("test://a")).at(0).text, "A");
        EXPECT_EQ((co_await client.read_resource("test://items/42")).at(0).text, "{\"id\":\"42\"}");
        try {
            co_await client.read_resource("test://nothing");
            ADD_FAILURE() << "reading a missing resource succeeded";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), mcp::error_code::resource_not_found_2025);
            EXPECT_EQ(e.data().at("uri"), json::value("test://nothing"));
        }
    });
}

TEST(ServerFeatures, SubscribersHearOfUpdatesAndEveryoneOfListChanges) {
    ServerClientFixture f;
    add_resources(f.server);
    f.server.add_tool(Tool{.name = "t", .description = "d"}, [](ToolCall&) { return CallToolResult::text("x"); });
    std::vector<std::string> heard;
    ClientOptions options;
    options.on_notification = [&](std::string_view method, const json::value& params) {
        std::string entry(method);
        if (params.is_object() && params.as_object().contains("uri")) entry += " " + std::string(params.at("uri").as_string());
        heard.push_back(entry);
    };
    f.with_client(options, [&](Client& client) -> asio::awaitable<void> {
        co_await client.subscribe_resource("test://a");
        f.server.notify_resource_updated("test://a");
        f.server.notify_resource_updated("test://other");
        f.server.add_tool(Tool{.name = "late", .description = "added later"}, [](ToolCall&) { return CallToolResult::text("y"); });
        co_await client.unsubscribe_resource("test://a");
        f.server.notify_resource_updated("test://a");
        co_await client.ping();
        EXPECT_EQ(heard, (std::vector<std::string>{"notifications/resources/updated test://a",
                                                   "notifications/tools/list_changed"}));
        EXPECT_EQ((co_await client.list_tools()).size(), 2u);
    });
}

TEST(ServerFeatures, PromptsCheckRequiredArgumentsAndComplete) {
    ServerClientFixture f;
    f.server.add_prompt(
        Prompt{.name = "greet", .description = "says hi", .arguments = {{.name = "who", .required = true}}},
        [](PromptGet& get) {
            return GetPromptResult{std::nullopt, {{"user", Content::text("Hello, " + get.arguments.at("who"))}}};
        });
    f.server.add_completion("ref/prompt", "greet", [](CompletionRequest& request) {
        Completion completion;
        for (std::string name : {"alice", "albert", "bob"})
            if (name.starts_with(request.value)) completion.values.push_back(name);
        completion.total = static_cast<std::int64_t>(completion.values.size());
        return completion;
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        json::object arguments{{"who", "Ada"}};  // built outside co_await (g++ 12 bug)
        auto prompt = co_await client.get_prompt("greet", arguments);
        CO_ASSERT_EQ(prompt.messages.size(), 1u);
        EXPECT_EQ(prompt.messages[0].content.json.at("text"), json::value("Hello, Ada"));
        try {
            co_await client.get_prompt("greet");
            ADD_FAILURE() << "a missing required argument was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), jsonrpc::error_code::invalid_params);
            EXPECT_NE(std::string(e.what()).find("who"), std::string::npos);
        }
        auto completion = co_await client.complete("ref/prompt", "greet", "who", "al");
        EXPECT_EQ(completion.values.size(), 2u);
        EXPECT_FALSE(completion.has_more);
    });
}

TEST(ServerFeatures, PaginatesListsWithOpaqueCursors) {
    ServerClientFixture f(ServerOptions{.page_size = 2});
    for (int i = 0; i < 5; ++i)
        f.server.add_tool(Tool{.name = "tool" + std::to_string(i), .description = "d"},
                          [](ToolCall&) { return CallToolResult::text("x"); });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        json::object first = co_await client.request("tools/list");
        EXPECT_EQ(first.at("tools").as_array().size(), 2u);
        CO_ASSERT_TRUE(first.contains("nextCursor"));
        EXPECT_EQ((co_await client.list_tools()).size(), 5u);  // the client follows the cursors
        try {
            json::object arguments{{"cursor", "bogus"}};  // built outside co_await (g++ 12 bug)
            co_await client.request("tools/list", arguments);
            ADD_FAILURE() << "a bogus cursor was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), jsonrpc::error_code::invalid_params);
        }
    });
}

TEST(ServerFeatures, InputRequestsAreSentToA2025ClientAndTheHandlerRunsAgain) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "ask", .description = "asks the user, the model and the roots"}, [](ToolCall& call) -> Outcome<CallToolResult> {
        const json::value* name = call.input_response("name");
        const json::value* model = call.input_response("model");
        const json::value* roots = call.input_response("roots");
        if (!name || !model || !roots) {
            return InputRequired{}
                .elicit("name", "Your name?", schema_object({{"name", {{"type", "string"}}}}, {"name"}))
                .sample("model", {{"messages", json::array{}}, {"maxTokens", 10}})
                .roots("roots")
                .state("round-1");
        }
        EXPECT_EQ(call.request_state(), "round-1");
        return CallToolResult::text(std::string(name->at("content").at("name").as_string()) + " / " +
                                    std::string(model->at("content").at("text").as_string()) + " / " +
                                    std::to_string(roots->at("roots").as_array().size()));
    });
    ClientOptions options;
    options.on_elicitation = [](const json::object& params, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
        EXPECT_EQ(params.at("message"), json::value("Your name?"));
        co_return json::object{{"action", "accept"}, {"content", {{"name", "Ada"}}}};
    };
    options.on_sampling = [](const json::object&, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
        co_return json::object{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "hi"}}}, {"model", "fake"}};
    };
    options.roots = std::vector<Root>{{"file:///project", "project"}};
    f.with_client(options, [&](Client& client) -> asio::awaitable<void> {
        auto result = co_await client.call_tool("ask");
        EXPECT_FALSE(result.is_error) << result.to_json();
        EXPECT_EQ(result.content.at(0).json.at("text"), json::value("Ada / hi / 1"));
    });
}

TEST(ServerFeatures, AskingAClientWithoutTheCapabilityIsAClearError) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "ask", .description = "needs elicitation"}, [](ToolCall& call) -> Outcome<CallToolResult> {
        if (!call.input_response("q")) return InputRequired{}.elicit("q", "?", schema_object({}));
        return CallToolResult::text("answered");
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        try {
            co_await client.call_tool("ask");
            ADD_FAILURE() << "the call succeeded without the capability";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), mcp::error_code::missing_required_client_capability);
            EXPECT_TRUE(e.data().at("requiredCapabilities").as_object().contains("elicitation"));
        }
    });
}

TEST(ServerFeatures, UnregisteredFeaturesAreNotFoundAndNotAdvertised) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "t", .description = "d"}, [](ToolCall&) { return CallToolResult::text("x"); });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        EXPECT_TRUE(client.server_capabilities().contains("tools"));
        EXPECT_FALSE(client.server_capabilities().contains("prompts"));
        EXPECT_EQ(client.server_info().name, "test-server");
        try {
            co_await client.list_prompts();
            ADD_FAILURE() << "prompts/list worked without prompts";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), jsonrpc::error_code::method_not_found);
        }
    });
}

TEST(ServerFeatures, SamplingRequestsCarryToolsToTheClient) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "plan", .description = "asks the model, offering it a tool"}, [](ToolCall& call) -> Outcome<CallToolResult> {
        const json::value* answer = call.input_response("model");
        if (!answer) {
            json::object weather_tool{{"name", "get_weather"},
                                      {"description", "Weather for a city"},
                                      {"inputSchema", schema_object({{"city", {{"type", "string"}}}}, {"city"})}};
            return InputRequired{}.sample("model", {{"messages", json::array{{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Weather in Paris?"}}}}}},
                                                    {"maxTokens", 50},
                                                    {"tools", json::array{weather_tool}},
                                                    {"toolChoice", {{"mode", "auto"}}}});
        }
        return CallToolResult::text(std::string(answer->at("stopReason").as_string()));
    });
    ClientOptions options;
    options.on_sampling = [](const json::object& params, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
        EXPECT_EQ(params.at("tools").at(0).at("name"), json::value("get_weather"));
        EXPECT_EQ(params.at("toolChoice").at("mode"), json::value("auto"));
        co_return json::object{{"role", "assistant"},
                               {"content", {{"type", "tool_use"}, {"id", "call-1"}, {"name", "get_weather"}, {"input", {{"city", "Paris"}}}}},
                               {"model", "fake"},
                               {"stopReason", "toolUse"}};
    };
    f.with_client(options, [&](Client& client) -> asio::awaitable<void> {
        auto result = co_await client.call_tool("plan");
        EXPECT_EQ(result.content.at(0).json.at("text"), json::value("toolUse"));
    });
}
