#pragma once
// mcp.json, the list of MCP servers the host connects to. Read unchanged from the seed's form
// ({"servers": {name: {type: local|remote, transport: stdio|http, …}}}), Claude's and Cursor's
// ({"mcpServers": {name: {command, args, env} | {url, headers}}}) and VS Code's
// ({"servers": {name: {type: stdio|http|sse, …}}, "inputs": […]}).
//
// A file that does not fit is refused as a whole with ConfigError naming the field
// ("servers.github.url: must be a string"). A variable a server needs but the environment
// lacks fails that server only (ServerEntry::problem), so the others still start.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcpkit::host {

class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class ServerTransport { stdio, http, sse };
enum class ApprovalPolicy { ask, automatic };

struct ServerEntry {
    std::string name;
    ServerTransport transport = ServerTransport::stdio;
    // stdio
    std::string command;
    std::vector<std::string> args;
    std::map<std::string, std::string> env;
    /// The host's whole environment for the child ("inheritEnv": true), instead of a basic set
    /// (HOME, PATH, LANG…) without the host's API keys; `env` is added either way.
    bool inherit_environment = false;
    std::optional<std::string> cwd;
    // http, sse
    std::string url;
    std::map<std::string, std::string> headers;

    std::chrono::milliseconds call_timeout{std::chrono::seconds(60)};
    /// Starting and initializing; npx may download the server first, hence the generous default.
    std::chrono::milliseconds start_timeout{std::chrono::seconds(60)};
    /// Whether the server's tool calls wait for the user.
    ApprovalPolicy approval = ApprovalPolicy::ask;
    /// Whether the server's tool annotations are believed ("trustAnnotations": true): then a tool
    /// annotated readOnlyHint runs without asking. Off by default, since any server can claim it.
    bool trust_annotations = false;
    /// Tool names offered (empty: all) and hidden.
    std::vector<std::string> allowed_tools;
    std::vector<std::string> excluded_tools;
    /// Calls per minute per tool; 0: unlimited.
    double rate_limit_per_minute = 0;
    bool disabled = false;
    /// The circuit breaker of each of its tools: open after this many failures more than
    /// successes, closed again when `breaker_reset` passes without a failure.
    int breaker_failures = 5;
    std::chrono::milliseconds breaker_reset{std::chrono::seconds(60)};
    /// Why the server cannot start as configured (an unset variable), or empty.
    std::string problem;
    /// The entry as written, to tell on reload whether it changed.
    boost::json::object source;
};

struct McpConfig {
    std::vector<ServerEntry> servers;
    /// Fields the host does not know, as "servers.x.sandbox" (reported, not refused: other hosts'
    /// files carry their own extensions).
    std::vector<std::string> ignored_fields;
};

/// Looks up an environment variable; nothing when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

/// The process environment.
EnvironmentLookup process_environment();

/// Reads a parsed mcp.json. `base_directory` stands for ${workspaceFolder} and resolves relative cwd.
McpConfig read_mcp_config(const boost::json::value& document, const EnvironmentLookup& environment,
                          const std::string& base_directory);

/// Reads and parses the file; a missing file or bad JSON is a ConfigError saying where.
McpConfig load_mcp_config(const std::string& path, const EnvironmentLookup& environment);

/// "${VAR}", "${VAR:-default}", "${env:VAR}" and "${input:id}" (VS Code's prompted inputs, taken
/// from the variable named after the id: "api-key" → API_KEY) expanded. Throws ConfigError naming
/// the variable when one is unset and has no default.
std::string expand_variables(const std::string& text, const EnvironmentLookup& environment,
                             const std::string& base_directory);

/// A server name usable inside a qualified tool name: letters, digits, '-' and '_'.
bool valid_server_name(const std::string& name);

}  // namespace mcpkit::host
