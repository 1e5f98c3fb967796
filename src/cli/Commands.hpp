#pragma once
// The subcommands of `mcpkit`, each in its own file.

#include "cli/ProtectedResource.hpp"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcpkit::cli {

struct EverythingArguments {
    std::size_t max_message_size = 16u << 20;
    bool log_json = false;  ///< stderr log lines as JSON objects
    int poll_microseconds = 50;  ///< adaptive polling before sleeping (StreamTransportOptions)
    std::string http;            ///< HOST:PORT to serve Streamable HTTP on instead of stdio
    std::string http_path = "/mcp";
    int http_threads = -1;       ///< -1: one per core, minus one
    std::string store = "memory";  ///< "memory" or redis://HOST:PORT
    std::vector<std::string> allowed_hosts;
    std::vector<std::string> allowed_origins;
    std::size_t max_sessions = 10000;
    std::size_t max_sessions_per_user = 1000;  ///< --max-sessions-per-user: behind --auth-issuer
    std::size_t max_tasks_per_user = 1000;     ///< --max-tasks-per-user: behind --auth-issuer
    int session_timeout_seconds = 1800;
    std::string tls_certificate;  ///< --tls-cert: serve HTTPS with this PEM chain
    std::string tls_key;          ///< --tls-key: its private key
    ProtectedResourceArguments auth;  ///< --auth-*: OAuth 2.1 protection
};
void add_everything_command(CLI::App& app, EverythingArguments& arguments);
int run_everything(const EverythingArguments& arguments);

struct ClientArguments {
    std::string verb;
    std::vector<std::string> verb_arguments;
    std::string protocol = "2025-11-25";
    double timeout_seconds = 60;
    bool quiet_stderr = false;
    std::vector<std::string> server_command;  ///< after "--"
    std::string url;                          ///< --url: a Streamable HTTP server instead of a command
    bool legacy_sse = false;                  ///< --sse: the URL speaks HTTP+SSE (2024-11-05)
    std::string ca_file;                      ///< --ca-file: certificate authorities for https
    std::optional<std::string> proxy;         ///< --proxy: an HTTP proxy ("" for none)
    bool conformance = false;                 ///< --conformance URL: the conformance suite's client
    std::vector<std::string> tour_calls;      ///< --call NAME: tools the tour may call though not read-only
    bool no_oauth = false;                    ///< --no-oauth: a 401 is an error, not a sign-in
    std::string client_id;                    ///< --client-id: a client registered beforehand
    std::string client_secret;                ///< --client-secret (or MCPKIT_CLIENT_SECRET)
    std::string client_metadata_url;          ///< --client-metadata-url: a Client ID Metadata Document
    std::string token_file;                   ///< --token-file: where tokens are kept
    int authorization_timeout_seconds = 300;  ///< --authorization-timeout: how long a sign-in may take
    std::vector<std::string> headers;         ///< --header "Name: value": sent on every HTTP request
};
int run_conformance_client(const std::string& url);
void add_client_command(CLI::App& app, ClientArguments& arguments);
int run_client(const ClientArguments& arguments);

struct ReviewArguments {
    int timeout_ms = 5000;
    std::size_t max_message_size = 16u << 20;
    bool log_json = false;
};
struct ReviewPanelArguments {
    std::string socket;
    std::string http = "127.0.0.1:0";
    std::string editor = "code -g {path}:{line}";
    std::string discovery_file;
    bool log_json = false;
};
void add_review_commands(CLI::App& app, ReviewArguments& review, ReviewPanelArguments& panel);
int run_review(const ReviewArguments& arguments);
int run_review_panel(const ReviewPanelArguments& arguments);

struct DevConsoleArguments {
    std::uint16_t port = 7890;
    std::size_t max_pending = 5;
    std::size_t max_entries = 10000;
    int tool_wait_ms = 15000;
    int extension_timeout_ms = 10000;  ///< silence after which the extension counts as gone
    int long_poll_ms = 5000;           ///< how long /sync holds an empty poll
    int connect_grace_ms = 3000;       ///< how long a command waits for a disconnected extension
    std::vector<std::string> extension_ids;
    bool log_json = false;
    bool stdio = false;  ///< --stdio: bridge stdio to the daemon on the port, starting it if needed
    bool no_auth = false;  ///< --no-auth: /mcp without its bearer secret
    bool print_mcp_config = false;  ///< --print-mcp-config: an HTTP client's configuration, with the secret
    std::vector<std::string> allowed_origins;  ///< --allow-origin: web pages that may call /mcp
};
void add_devconsole_command(CLI::App& app, DevConsoleArguments& arguments);
int run_devconsole(const DevConsoleArguments& arguments);

struct HostArguments {
    std::string config;                   ///< --config: mcp.json
    std::string http = "127.0.0.1:3000";  ///< --http HOST:PORT
    std::string store;                    ///< --store: sqlite:PATH, redis://…, memory
    std::string token;                    ///< --token: required beyond loopback (made up when absent)
    std::vector<std::string> allowed_hosts;
    std::vector<std::string> roots;       ///< --root: folders offered to servers
    std::string provider;                 ///< --llm: gemini, anthropic or openai (default: from the environment)
    std::string model;                    ///< --model
    std::string base_url;                 ///< --llm-base-url
    std::string llm_ca_file;              ///< --llm-ca-file
    bool text_tool_calls = false;         ///< --text-tool-calls
    std::string system_prompt;            ///< --system-prompt
    int max_steps = 10;
    int heartbeat_seconds = 30;           ///< --heartbeat-seconds
    int llm_idle_seconds = 300;           ///< --llm-idle-timeout
    bool llm_no_stream = false;           ///< --llm-no-stream
    std::optional<double> temperature;    ///< --temperature (sent only when given)
    std::optional<int> max_tokens;        ///< --max-tokens (sent only when given)
    std::optional<int> thinking_budget;   ///< --thinking-budget
    bool log_json = false;
    std::string log_level = "info";
};
void add_host_command(CLI::App& app, HostArguments& arguments);
int run_host(const HostArguments& arguments);

}  // namespace mcpkit::cli
