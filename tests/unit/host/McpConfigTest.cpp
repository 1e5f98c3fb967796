// mcp.json in the three formats people have, variables expanded, and mistakes named.

#include "host/config/McpConfig.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <map>

namespace mcpkit::host {
namespace {

EnvironmentLookup environment(std::map<std::string, std::string> variables) {
    return [variables](const std::string& name) -> std::optional<std::string> {
        auto it = variables.find(name);
        if (it == variables.end()) return std::nullopt;
        return it->second;
    };
}

McpConfig read(std::string_view text, std::map<std::string, std::string> variables = {}) {
    return read_mcp_config(boost::json::parse(text), environment(std::move(variables)), "/work/project");
}

std::string refusal(std::string_view text) {
    try {
        read(text);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(McpConfig, ReadsTheSeedsForm) {
    auto config = read(R"({"servers": {
        "filesystem": {"id": "filesystem", "type": "local", "transport": "stdio", "command": "npx",
                       "args": ["@modelcontextprotocol/server-filesystem"], "timeoutMs": 10000},
        "github": {"id": "github", "type": "remote", "transport": "http", "url": "http://github-mcp.example.com",
                   "timeoutMs": 15000}}})");
    ASSERT_EQ(config.servers.size(), 2u);
    EXPECT_EQ(config.servers[0].name, "filesystem");
    EXPECT_EQ(config.servers[0].transport, ServerTransport::stdio);
    EXPECT_EQ(config.servers[0].call_timeout, std::chrono::milliseconds(10000));
    EXPECT_EQ(config.servers[1].transport, ServerTransport::http);
    EXPECT_EQ(config.servers[1].url, "http://github-mcp.example.com");
    EXPECT_TRUE(config.ignored_fields.empty());
}

TEST(McpConfig, ReadsClaudesAndCursorsFormWithTheTransportInferred) {
    auto config = read(R"({"mcpServers": {
        "fs": {"command": "npx", "args": ["-y", "server", "/tmp"], "env": {"DEBUG": "1"}},
        "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}"}}}})",
                       {{"TOKEN", "t0k"}});
    EXPECT_EQ(config.servers[0].transport, ServerTransport::stdio);
    EXPECT_EQ(config.servers[0].env.at("DEBUG"), "1");
    EXPECT_EQ(config.servers[1].transport, ServerTransport::http);
    EXPECT_EQ(config.servers[1].headers.at("Authorization"), "Bearer t0k");
}

TEST(McpConfig, ReadsVsCodesFormWithInputsFromTheEnvironment) {
    auto config = read(R"({"inputs": [{"type": "promptString", "id": "api-key", "password": true}],
        "servers": {"memory": {"type": "stdio", "command": "npx", "env": {"API_KEY": "${input:api-key}"},
                               "cwd": "${workspaceFolder}/sub", "sandboxEnabled": true},
                    "legacy": {"type": "sse", "url": "http://127.0.0.1:3001/sse"}}})",
                       {{"API_KEY", "secret"}});
    EXPECT_EQ(config.servers[0].env.at("API_KEY"), "secret");
    EXPECT_EQ(config.servers[0].cwd, "/work/project/sub");
    EXPECT_EQ(config.servers[1].transport, ServerTransport::sse);
    ASSERT_EQ(config.ignored_fields.size(), 1u);
    EXPECT_EQ(config.ignored_fields[0], "servers.memory.sandboxEnabled");
}

TEST(McpConfig, AcceptsMcphostsCommandArrayAndHeaderLines) {
    auto config = read(R"({"mcpServers": {"a": {"command": ["npx", "-y", "srv"]},
        "b": {"url": "http://h/mcp", "headers": ["Authorization: Bearer x", "X-Other:  y"]}}})");
    EXPECT_EQ(config.servers[0].command, "npx");
    EXPECT_EQ(config.servers[0].args, (std::vector<std::string>{"-y", "srv"}));
    EXPECT_EQ(config.servers[1].headers.at("Authorization"), "Bearer x");
    EXPECT_EQ(config.servers[1].headers.at("X-Other"), "y");
}

TEST(McpConfig, ExpandsEveryVariableForm) {
    auto lookup = environment({{"HOME", "/home/u"}, {"PORT", "8080"}});
    EXPECT_EQ(expand_variables("${HOME}/x:${env:PORT}", lookup, "/w"), "/home/u/x:8080");
    EXPECT_EQ(expand_variables("${MISSING:-fallback}", lookup, "/w"), "fallback");
    EXPECT_EQ(expand_variables("${workspaceFolder}/a", lookup, "/w"), "/w/a");
    EXPECT_EQ(expand_variables("no variables, just $HOME", lookup, "/w"), "no variables, just $HOME");
    EXPECT_THROW(expand_variables("${env:MISSING}", lookup, "/w"), ConfigError);
}

TEST(McpConfig, AVariableThatIsNotSetFailsOnlyThatServer) {
    auto config = read(R"({"mcpServers": {"needs": {"command": "x", "env": {"T": "${env:NOT_SET}"}},
                                          "fine": {"command": "y"}}})");
    EXPECT_NE(config.servers[0].problem.find("NOT_SET, which is not set"), std::string::npos) << config.servers[0].problem;
    EXPECT_TRUE(config.servers[1].problem.empty());
}

TEST(McpConfig, HostSettingsPerServer) {
    auto config = read(R"({"mcpServers": {"a": {"command": "x", "approval": "auto", "initTimeout": 90000,
        "allowedTools": ["read"], "rateLimitPerMinute": 10, "circuitBreaker": {"failures": 3, "resetMs": 1000}}}})");
    const auto& server = config.servers[0];
    EXPECT_EQ(server.approval, ApprovalPolicy::automatic);
    EXPECT_EQ(server.start_timeout, std::chrono::milliseconds(90000));
    EXPECT_EQ(server.allowed_tools, std::vector<std::string>{"read"});
    EXPECT_EQ(server.rate_limit_per_minute, 10);
    EXPECT_EQ(server.breaker_failures, 3);
    EXPECT_EQ(server.breaker_reset, std::chrono::milliseconds(1000));
}

TEST(McpConfig, NamesTheFieldOfEachMistake) {
    EXPECT_EQ(refusal("[]"), "mcp.json: must be an object like {\"mcpServers\": {…}}, not an array");
    EXPECT_EQ(refusal(R"({"mcpServers": {"a": {"args": "x", "command": "y"}}})"),
              "mcpServers.a.args: must be an array of strings, not a string");
    EXPECT_EQ(refusal(R"({"mcpServers": {"a": {"command": "y", "args": ["ok", 3]}}})"),
              "mcpServers.a.args[1]: must be a string, not a number");
    EXPECT_EQ(refusal(R"({"mcpServers": {"a": {"command": "y", "env": {"K": true}}}})"),
              "mcpServers.a.env.K: must be a string, not a boolean");
    EXPECT_EQ(refusal(R"({"mcpServers": {"a": {}}})"),
              "mcpServers.a: a stdio server needs \"command\" (or give \"url\" for a remote one)");
    EXPECT_EQ(refusal(R"({"mcpServers": {"a": {"type": "http"}}})"), "mcpServers.a: a remote server needs \"url\"");
    EXPECT_EQ(refusal(R"({"mcpServers": {"a": {"command": "y", "allowedTools": ["a"], "excludedTools": ["b"]}}})"),
              "mcpServers.a: give allowedTools or excludedTools, not both");
    EXPECT_EQ(refusal(R"({"mcpServers": {"a": {"command": "y", "circuitBreaker": {"failures": 0}}}})"),
              "mcpServers.a.circuitBreaker.failures: must be a whole number from 1 to 1000");
    EXPECT_EQ(refusal(R"({"servers": {}, "mcpServers": {}})"), "mcpServers: give \"servers\" or \"mcpServers\", not both");
    EXPECT_NE(refusal(R"({"mcpServers": {"a__b": {"command": "y"}}})").find("no \"__\""), std::string::npos);
}

}  // namespace
}  // namespace mcpkit::host
