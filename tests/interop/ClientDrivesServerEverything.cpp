// mcpkit's client drives the reference server @modelcontextprotocol/server-everything (Node) over
// stdio through all its tools, resources and prompts, answering its sampling, elicitation and
// roots requests.

#include "TestSupport.hpp"

#include <mcp/Error.hpp>
#include <mcp/client/Client.hpp>
#include <mcp/transport/ChildProcessTransport.hpp>

#include <boost/json/serialize.hpp>

#include <csignal>
#include <cstdlib>
#include <set>

using namespace mcp;
using mcp::testing::run;
using mcp::testing::sleep_for;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

/// Arguments for a tool from its input schema: required fields get a plausible value of their type.
json::object arguments_for(const Tool& tool) {
    json::object arguments;
    const auto* properties = tool.input_schema.if_contains("properties");
    const auto* required = tool.input_schema.if_contains("required");
    if (!properties || !required || !required->is_array()) return arguments;
    for (const auto& name_value : required->as_array()) {
        const auto& name = name_value.as_string();
        const auto& property = properties->as_object().at(name).as_object();
        if (auto* choices = property.if_contains("enum")) {
            arguments[name] = choices->as_array().at(0);
            continue;
        }
        std::string_view type = property.contains("type") ? std::string_view(property.at("type").as_string()) : "string";
        if (type == "number" || type == "integer") {
            arguments[name] = 2;
        } else if (type == "boolean") {
            arguments[name] = false;
        } else if (name == "url") {
            arguments[name] = "https://example.com/consent";
        } else {
            arguments[name] = "hello from mcpkit";
        }
    }
    return arguments;
}

struct Observed {
    int sampling = 0;
    int elicitation = 0;
    int url_elicitation = 0;
    std::vector<std::string> notifications;
    std::vector<std::string> log_messages;
};

ClientOptions client_options(Observed& observed) {
    ClientOptions options;
    options.info = {"mcpkit-interop", "1.0.0"};
    options.on_sampling = [&observed](const json::object& params, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
        ++observed.sampling;
        EXPECT_TRUE(params.contains("messages"));
        co_return json::object{{"role", "assistant"},
                               {"content", {{"type", "text"}, {"text", "a sampled answer"}}},
                               {"model", "mcpkit-fake-model"},
                               {"stopReason", "endTurn"}};
    };
    options.on_elicitation = [&observed](const json::object& params, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
        if (params.contains("mode") && params.at("mode") == "url") {
            ++observed.url_elicitation;
            co_return json::object{{"action", "accept"}};
        }
        ++observed.elicitation;
        // Fill the form from its defaults, and the required fields by type.
        json::object content;
        const auto& schema = params.at("requestedSchema").as_object();
        for (const auto& [key, property] : schema.at("properties").as_object()) {
            if (auto* fallback = property.as_object().if_contains("default")) content[key] = *fallback;
        }
        content["name"] = "Ada Lovelace";
        co_return json::object{{"action", "accept"}, {"content", std::move(content)}};
    };
    options.roots = std::vector<Root>{{"file:///tmp/mcpkit-project", "project"}};
    options.on_notification = [&observed](std::string_view method, const json::value& params) {
        observed.notifications.emplace_back(method);
        if (method == "notifications/message" && params.is_object())
            if (auto* data = params.as_object().if_contains("data"); data && data->is_string())
                observed.log_messages.emplace_back(data->as_string());
    };
    return options;
}

}  // namespace

class ServerEverything : public ::testing::Test {
protected:
    void SetUp() override {
        node_ = environment("NODE");
        script_ = environment("SERVER_EVERYTHING");
        if (node_.empty() || script_.empty()) GTEST_FAIL() << "NODE and SERVER_EVERYTHING must be set (CTest sets them)";
    }
    std::shared_ptr<ChildProcessTransport> start(asio::io_context& io) {
        ChildProcessOptions child;
        child.command = node_;
        child.args = {script_, "stdio"};
        child.on_stderr_line = [](std::string_view) {};
        return ChildProcessTransport::spawn(io.get_executor(), child);
    }
    std::string node_;
    std::string script_;
};

TEST_F(ServerEverything, EveryToolAnswersAndTheServersRequestsAreServed) {
    asio::io_context io;
    Observed observed;
    run(io, [&]() -> asio::awaitable<void> {
        auto transport = start(io);
        Client client(client_options(observed));
        co_await client.connect(transport);
        EXPECT_EQ(client.protocol_version(), "2025-11-25");
        EXPECT_EQ(client.server_info().name, "mcp-servers/everything");

        // Capability-dependent tools arrive after initialized; wait until they are listed.
        std::vector<Tool> tools;
        for (int i = 0; i < 100; ++i) {
            tools = co_await client.list_tools();
            if (tools.size() >= 17) break;
            co_await sleep_for(std::chrono::milliseconds(50));
        }
        std::set<std::string> names;
        for (const auto& tool : tools) names.insert(tool.name);
        for (const char* expected : {"echo", "get-sum", "trigger-sampling-request", "trigger-elicitation-request",
                                     "trigger-url-elicitation", "get-roots-list", "get-structured-content"})
            EXPECT_TRUE(names.contains(expected)) << expected;

        for (const auto& tool : tools) {
            json::object arguments = arguments_for(tool);
            if (tool.name == "trigger-long-running-operation") arguments = {{"duration", 1}, {"steps", 2}};
            if (tool.name == "gzip-file-as-resource") arguments = {{"name", "hello.gz"}, {"data", "data:text/plain;base64,aGVsbG8="}};
            RequestOptions options;
            int progress_events = 0;
            options.on_progress = [&](double, std::optional<double>, const std::string&) { ++progress_events; };
            CallToolResult result = co_await client.call_tool(tool.name, arguments, options);
            // simulate-research-query only runs as a task, which this test does not request.
            bool expect_error = tool.name == "simulate-research-query";
            EXPECT_EQ(result.is_error, expect_error) << tool.name << ": " << json::serialize(result.to_json());
            EXPECT_FALSE(result.content.empty() && !result.structured_content) << tool.name;
            if (tool.name == "echo") {
                EXPECT_EQ(result.content.at(0).json.at("text"), "Echo: hello from mcpkit");
            }
            if (tool.name == "get-sum") {
                EXPECT_EQ(result.content.at(0).json.at("text"), "The sum of 2 and 2 is 4.");
            }
            if (tool.name == "get-structured-content") {
                EXPECT_TRUE(result.structured_content) << "structured output";
            }
            if (tool.name == "trigger-long-running-operation") {
                EXPECT_EQ(progress_events, 2);
            }
            if (tool.name == "get-roots-list") {
                EXPECT_NE(json::serialize(result.to_json()).find("file:///tmp/mcpkit-project"), std::string::npos);
            }
        }
        EXPECT_EQ(observed.sampling, 1);
        EXPECT_EQ(observed.elicitation, 1);
        EXPECT_EQ(observed.url_elicitation, 1);
        bool roots_seen = false;
        for (const auto& message : observed.log_messages)
            if (message.find("Roots updated: 1 root(s)") != std::string::npos) roots_seen = true;
        EXPECT_TRUE(roots_seen) << "the server never reported receiving our roots";
        co_await client.close();
        // Its toggled timers keep Node alive after stdin closes, so the spec's next step, SIGTERM, ends it.
        int exit_code = co_await transport->shutdown();
        EXPECT_TRUE(exit_code == 0 || exit_code == 128 + SIGTERM) << exit_code;
        EXPECT_TRUE(transport->exited());
    }, std::chrono::seconds(60));
}

TEST_F(ServerEverything, EveryResourceTemplateAndPromptIsReadable) {
    asio::io_context io;
    Observed observed;
    run(io, [&]() -> asio::awaitable<void> {
        auto transport = start(io);
        Client client(client_options(observed));
        co_await client.connect(transport);

        auto resources = co_await client.list_resources();
        EXPECT_GE(resources.size(), 7u);
        for (const auto& resource : resources) {
            auto contents = co_await client.read_resource(resource.uri);
            CO_ASSERT_EQ(contents.size(), 1u);
            EXPECT_EQ(contents[0].uri, resource.uri);
            EXPECT_TRUE(contents[0].text || contents[0].blob) << resource.uri;
        }
        auto templates = co_await client.list_resource_templates();
        EXPECT_EQ(templates.size(), 2u);
        auto text = co_await client.read_resource("demo://resource/dynamic/text/3");
        EXPECT_NE(text.at(0).text.value_or("").find("Resource 3"), std::string::npos);
        auto blob = co_await client.read_resource("demo://resource/dynamic/blob/3");
        EXPECT_TRUE(blob.at(0).blob);
        try {
            co_await client.read_resource("demo://resource/dynamic/text/not-a-number");
            ADD_FAILURE() << "reading an invalid resource succeeded";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("not-a-number"), std::string::npos) << e.what();
        }

        Completion completion = co_await client.complete("ref/resource", "demo://resource/dynamic/text/{resourceId}",
                                                         "resourceId", "5");
        CO_ASSERT_TRUE(!completion.values.empty());
        EXPECT_EQ(completion.values.front(), "5");

        co_await client.subscribe_resource("demo://resource/dynamic/text/1");
        co_await client.unsubscribe_resource("demo://resource/dynamic/text/1");
        co_await client.set_logging_level("debug");
        co_await client.ping();

        auto prompts = co_await client.list_prompts();
        std::map<std::string, json::object> arguments = {
            {"args-prompt", {{"city", "Paris"}, {"state", "TX"}}},
            {"completable-prompt", {{"department", "Sales"}, {"name", "Eve"}}},
            {"resource-prompt", {{"resourceType", "Text"}, {"resourceId", "2"}}},
        };
        for (const auto& prompt : prompts) {
            GetPromptResult result = co_await client.get_prompt(prompt.name, arguments[prompt.name]);
            EXPECT_FALSE(result.messages.empty()) << prompt.name;
        }
        GetPromptResult weather = co_await client.get_prompt("args-prompt", arguments["args-prompt"]);
        CO_ASSERT_TRUE(!weather.messages.empty());
        EXPECT_NE(json::serialize(weather.messages.front().content.json).find("Paris"), std::string::npos);
        co_await client.close();
        co_await transport->shutdown();
    }, std::chrono::seconds(60));
}
