// `mcpkit client --conformance URL`: the everything-client the official conformance suite drives
// in client mode. The suite starts it once per scenario with MCP_CONFORMANCE_SCENARIO (what to
// do), MCP_CONFORMANCE_PROTOCOL_VERSION (which era) and, for some scenarios,
// MCP_CONFORMANCE_CONTEXT (JSON with what to send). Everything goes through mcp::Client over
// the Streamable HTTP client transport, as any application would use them.

#include "cli/Commands.hpp"

#include <mcp/Error.hpp>
#include <mcp/Version.hpp>
#include <mcp/auth/OAuthClient.hpp>
#include <mcp/transport/HttpClient.hpp>
#include <mcp/client/Client.hpp>
#include <mcp/transport/StreamableHttpClientTransport.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <cstdlib>

namespace mcpkit::cli {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

void say(const std::string& text) { std::fprintf(stderr, "mcpkit conformance client: %s\n", text.c_str()); }

/// Accepts a form elicitation with every field's schema default (SEP-1034).
json::object accept_with_defaults(const json::object& params) {
    json::object content;
    if (auto* schema = params.if_contains("requestedSchema"); schema && schema->is_object())
        if (auto* properties = schema->get_object().if_contains("properties"); properties && properties->is_object())
            for (const auto& [name, property] : properties->get_object())
                if (property.is_object())
                    if (auto* value = property.get_object().if_contains("default")) content[name] = *value;
    return json::object{{"action", "accept"}, {"content", std::move(content)}};
}

/// The suite's authorization servers approve at once: GET the authorization URL and the redirect
/// (not followed) is where a browser would have been sent back.
class ApprovingPrompt final : public mcp::auth::AuthorizationPrompt {
public:
    explicit ApprovingPrompt(asio::any_io_executor executor) : http_(executor, {.max_redirects = 0}) {}
    asio::awaitable<std::string> redirect_uri() override { co_return "http://localhost:3000/callback"; }
    asio::awaitable<std::string> authorize(std::string url) override {
        mcp::HttpRequest request{.method = "GET", .url = url};
        auto response = co_await http_.send(std::move(request));
        auto location = response.header("Location");
        if (!location)
            throw mcp::auth::AuthorizationError("the authorization endpoint answered HTTP " +
                                                std::to_string(response.status) + " without a redirect");
        co_return std::string(*location);
    }

private:
    mcp::HttpClient http_;
};

/// The URL the suite expects as client_id where Client ID Metadata Documents are supported.
constexpr const char* conformance_client_metadata_url = "https://conformance-test.local/client-metadata.json";

std::shared_ptr<mcp::auth::OAuthClient> make_authorization(asio::any_io_executor executor, const std::string& url) {
    mcp::auth::OAuthClientOptions oauth;
    oauth.prompt = std::make_shared<ApprovingPrompt>(executor);
    oauth.client_name = "mcpkit-conformance-client";
    oauth.client_metadata_url = conformance_client_metadata_url;
    oauth.log = [](std::string_view message) { say(std::string(message)); };
    // Pre-registration scenarios hand over the client's credentials.
    if (std::string context = environment("MCP_CONFORMANCE_CONTEXT"); !context.empty()) {
        json::value parsed = json::parse(context);
        if (auto* id = parsed.as_object().if_contains("client_id"); id && id->is_string()) {
            mcp::auth::ClientCredentials client;
            client.client_id = std::string(id->get_string());
            if (auto* secret = parsed.as_object().if_contains("client_secret"); secret && secret->is_string())
                client.client_secret = std::string(secret->get_string());
            oauth.client = client;
        }
    }
    return mcp::auth::OAuthClient::create(executor, url, std::move(oauth));
}

asio::awaitable<void> run_scenario(mcp::Client& client, const std::string& scenario) {
    auto tools = co_await client.list_tools();
    say("tools: " + std::to_string(tools.size()));
    auto find = [&](std::string_view name) -> const mcp::Tool* {
        for (const auto& tool : tools)
            if (tool.name == name) return &tool;
        return nullptr;
    };
    if (scenario == "tools_call") {
        json::object arguments{{"a", 2}, {"b", 3}};
        auto result = co_await client.call_tool("add_numbers", std::move(arguments));
        say("add_numbers: " + json::serialize(result.to_json()));
    } else if (scenario == "elicitation-sep1034-client-defaults") {
        co_await client.call_tool("test_client_elicitation_defaults");
    } else if (scenario == "sse-retry") {
        auto result = co_await client.call_tool("test_reconnection");
        say("test_reconnection: " + json::serialize(result.to_json()));
    } else if (scenario == "json-schema-2020-12-preservation") {
        if (const auto* tool = find("json_schema_2020_12_tool")) {
            json::object arguments{{"schema", tool->input_schema}};
            co_await client.call_tool("json_schema_echo", std::move(arguments));
        }
    } else if (scenario == "sep-2322-client-request-state") {
        for (const char* name : {"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated",
                                 "test_mrtr_no_result_type"})
            if (find(name)) co_await client.call_tool(name);
    } else if (scenario == "http-standard-headers") {
        if (!tools.empty()) co_await client.call_tool(tools.front().name);
        auto resources = co_await client.list_resources();
        if (!resources.empty()) co_await client.read_resource(resources.front().uri);
        auto prompts = co_await client.list_prompts();
        if (!prompts.empty()) co_await client.get_prompt(prompts.front().name);
    } else if (scenario == "http-custom-headers") {
        json::value context = json::parse(environment("MCP_CONFORMANCE_CONTEXT"));
        for (const auto& call : context.at("toolCalls").as_array()) {
            std::string name(call.at("name").as_string());
            json::object arguments = call.at("arguments").as_object();
            co_await client.call_tool(name, std::move(arguments));
        }
    } else if (scenario.starts_with("auth/")) {
        if (find("test-tool")) co_await client.call_tool("test-tool");
    } else if (scenario == "http-invalid-tool-headers") {
        // Tools with unusable x-mcp-header annotations were already left out of `tools`.
        for (const auto& tool : tools) {
            json::object arguments;
            if (auto* properties = tool.input_schema.if_contains("properties"); properties && properties->is_object())
                for (const auto& [name, property] : properties->get_object())
                    if (property.is_object() && property.get_object().contains("x-mcp-header"))
                        arguments[name] = "us-west1";
            co_await client.call_tool(tool.name, std::move(arguments));
        }
    }
    // initialize, request-metadata, json-schema-ref-no-deref and unknown scenarios: connecting and
    // listing tools is the whole exercise.
}

}  // namespace

int run_conformance_client(const std::string& url) {
    std::string scenario = environment("MCP_CONFORMANCE_SCENARIO");
    std::string version = environment("MCP_CONFORMANCE_PROTOCOL_VERSION");
    if (version.empty()) version = "2025-11-25";
    say("scenario \"" + scenario + "\", protocol " + version + ", " + url);
    asio::io_context io(1);
    int exit_code = 0;
    auto work = [&]() -> asio::awaitable<void> {
        std::shared_ptr<mcp::StreamableHttpClientTransport> transport;
        try {
            mcp::StreamableHttpClientOptions http;
            http.url = url;
            http.log = [](std::string_view message) { say(std::string(message)); };
            if (scenario.starts_with("auth/")) http.authorization = make_authorization(io.get_executor(), url);
            transport = mcp::StreamableHttpClientTransport::create(io.get_executor(), std::move(http));
            mcp::ClientOptions options;
            options.info = {"mcpkit-conformance-client", MCP_VERSION_STRING};
            options.protocol_version = version;
            options.request_timeout = std::chrono::seconds(20);
            options.on_elicitation = [](const json::object& params, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
                // The MRTR mocks ask to confirm; the defaults scenario wants its defaults back.
                json::object answer = accept_with_defaults(params);
                if (answer.at("content").as_object().empty()) answer["content"] = json::object{{"confirmed", true}};
                co_return answer;
            };
            options.on_sampling = [](const json::object&, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
                co_return json::object{{"role", "assistant"},
                                       {"content", {{"type", "text"}, {"text", "conformance"}}},
                                       {"model", "mcpkit-conformance"},
                                       {"stopReason", "endTurn"}};
            };
            options.roots = std::vector<mcp::Root>{{"file:///tmp", std::string("tmp")}};
            options.log = [](std::string_view message) { say(std::string(message)); };
            options.on_notification = [](std::string_view method, const json::value& params) {
                say(std::string(method) + " " + json::serialize(params));
            };
            mcp::Client client(options);
            co_await client.connect(transport);
            co_await run_scenario(client, scenario);
        } catch (const std::exception& e) {
            say(std::string("failed: ") + e.what());
            exit_code = 1;
        }
        if (transport) co_await transport->shutdown();
    };
    asio::co_spawn(io, work(), [](std::exception_ptr) {});
    io.run();
    return exit_code;
}

}  // namespace mcpkit::cli
