// `mcpkit devconsole`: the browser dev-console daemon (MCP at /mcp, the extension's routes beside
// it, on one loopback port), or with --stdio a bridge to it for assistants that only start
// commands.

#include "cli/CommandSupport.hpp"
#include "cli/Commands.hpp"
#include "devconsole/DevConsole.hpp"
#include "devconsole/McpSecret.hpp"
#include "devconsole/StdioBridge.hpp"
#include "devconsole/extension/ExtensionRoutes.hpp"
#include "devconsole/tools/DevConsoleTools.hpp"

#include <mcp/PrivateFiles.hpp>
#include <mcp/server/Server.hpp>
#include <mcp/transport/BearerSecretAuthorizer.hpp>
#include <mcp/transport/StreamableHttpServer.hpp>

#include <boost/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace mcpkit::cli {

void add_devconsole_command(CLI::App& app, DevConsoleArguments& arguments) {
    auto* command = app.add_subcommand(
        "devconsole", "Browser dev-console MCP server: what the browser extension captures, and commands it runs");
    command->add_option("--port", arguments.port, "Loopback port for MCP (/mcp) and the extension")->capture_default_str();
    command->add_option("--max-pending", arguments.max_pending,
                        "Commands waiting for the extension at once; beyond, the oldest expires (queue_overflow)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    command->add_option("--max-entries", arguments.max_entries, "Console entries kept (oldest evicted first)")
        ->check(CLI::Range(100, 10000000))
        ->capture_default_str();
    command->add_option("--tool-wait-ms", arguments.tool_wait_ms,
                        "How long a tool call waits for its command before answering still_processing")
        ->check(CLI::Range(100, 60000))
        ->capture_default_str();
    command->add_option("--extension-timeout-ms", arguments.extension_timeout_ms,
                        "Silence after which the extension counts as disconnected (its pending commands expire)")
        ->check(CLI::Range(200, 600000))
        ->capture_default_str();
    command->add_option("--long-poll-ms", arguments.long_poll_ms, "How long /sync holds a poll with nothing to deliver")
        ->check(CLI::Range(50, 60000))
        ->capture_default_str();
    command->add_option("--connect-grace-ms", arguments.connect_grace_ms,
                        "How long a command waits for a disconnected extension to come back before it is refused")
        ->check(CLI::Range(0, 60000))
        ->capture_default_str();
    command->add_option("--extension-id", arguments.extension_ids,
                        "Only this browser extension id may connect (repeat; default: any extension origin)");
    command->add_flag("--no-auth", arguments.no_auth,
                      "Serve /mcp without its bearer secret (any local program or user could then read what the "
                      "browser captured and run commands in the tab)");
    command->add_flag("--print-mcp-config", arguments.print_mcp_config,
                      "Print an mcp.json entry for an assistant that speaks HTTP, with the /mcp secret, and exit");
    command->add_option("--allow-origin", arguments.allowed_origins,
                        "A web page origin that may call /mcp (repeat; default: none, pages are refused)");
    command->add_flag("--log-json", arguments.log_json, "Write stderr log lines as JSON objects");
    command->add_flag("--stdio", arguments.stdio,
                      "Speak MCP on stdin/stdout, forwarding to the daemon on --port (started if none answers), so "
                      "assistants that only start commands share one daemon and one browser");
}

namespace {

int run_bridge(const DevConsoleArguments& arguments) {
    devconsole::StdioBridgeOptions options;
    options.port = arguments.port;
    std::error_code ec;
    options.executable = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    options.log_file = (mcp::state_directory() / ("devconsole-" + std::to_string(arguments.port) + ".log")).string();
    return devconsole::run_stdio_bridge(options);
}

/// What an assistant that speaks Streamable HTTP needs in its mcp.json to reach /mcp.
int print_mcp_config(const DevConsoleArguments& arguments) {
    std::string url = "http://127.0.0.1:" + std::to_string(arguments.port) + "/mcp";
    boost::json::object server{{"type", "http"}, {"url", url}};
    if (!arguments.no_auth)
        server["headers"] = boost::json::object{{"Authorization", "Bearer " + devconsole::mcp_secret(arguments.port)}};
    boost::json::object config{{"mcpServers", boost::json::object{{"devconsole", std::move(server)}}}};
    std::printf("%s\n", boost::json::serialize(config).c_str());
    return 0;
}

}  // namespace

int run_devconsole(const DevConsoleArguments& arguments) {
    using namespace mcpkit::devconsole;
    if (arguments.stdio) return run_bridge(arguments);
    if (arguments.print_mcp_config) return print_mcp_config(arguments);
    // A held poll is not a sign of life: it must end well before the extension counts as gone.
    if (arguments.long_poll_ms * 2 > arguments.extension_timeout_ms) {
        std::fprintf(stderr,
                     "mcpkit devconsole: --long-poll-ms (%d) must be at most half of --extension-timeout-ms (%d), or a "
                     "quiet extension would count as disconnected while its poll is held\n",
                     arguments.long_poll_ms, arguments.extension_timeout_ms);
        return 2;
    }
    boost::asio::io_context io(1);
    auto log = stderr_log("devconsole", arguments.log_json);
    DevConsoleOptions options;
    options.port = arguments.port;
    options.commands.max_pending = arguments.max_pending;
    options.capture.budgets[static_cast<std::size_t>(Stream::logs)].max_entries = arguments.max_entries;
    // The byte budget follows the count: about 2 kB an entry before bytes bind.
    options.capture.budgets[static_cast<std::size_t>(Stream::logs)].max_bytes =
        std::max<std::size_t>(32u << 20, arguments.max_entries * 2048);
    options.tool_wait = std::chrono::milliseconds(arguments.tool_wait_ms);
    options.disconnect_after = std::chrono::milliseconds(arguments.extension_timeout_ms);
    options.long_poll = std::chrono::milliseconds(arguments.long_poll_ms);
    options.connect_grace = std::chrono::milliseconds(arguments.connect_grace_ms);
    options.extension_ids = arguments.extension_ids;
    options.log = log;
    DevConsole console(io, options);

    mcp::ServerOptions server_options;
    server_options.log = log;
    server_options.instructions =
        "Sees what the user's browser sees, through the mcpkit devconsole extension: console, errors, network, "
        "WebSocket traffic, user actions, Web Vitals (observe); acts in the tracked tab (interact); looks closer "
        "(analyze); builds HAR files, Playwright reproductions and summaries (generate); configure({what:'doctor'}) "
        "says what is wrong when nothing arrives.";
    mcp::Server server({.name = "mcpkit-devconsole", .version = std::string(daemon_version)}, server_options);
    add_devconsole_tools(server, console);

    mcp::StreamableHttpServerOptions http;
    http.host = "127.0.0.1";
    http.port = arguments.port;
    // /mcp is for the user's assistants only: no web page (not even one on localhost), and no other
    // local user's program, which has no way to the secret.
    http.only_listed_origins = true;
    http.allowed_origins = arguments.allowed_origins;
    std::string secret;
    if (!arguments.no_auth) {
        secret = mcp_secret(arguments.port);
        http.authorization = mcp::make_bearer_secret_authorizer(
            secret, "the daemon's secret is in " + mcp_secret_file(arguments.port).string() +
                        " (or MCPKIT_DEVCONSOLE_TOKEN); `mcpkit devconsole --print-mcp-config` prints a configuration "
                        "with it, and `mcpkit devconsole --stdio` sends it for you");
    }
    http.max_body_bytes = 10u << 20;  // the largest route body (/logs, /screenshots)
    http.routes = std::make_shared<ExtensionRoutes>(console, secret);
    http.log = log;
    console.start();
    try {
        return mcp::serve_http(server, io, std::move(http), [&](std::uint16_t port) {
            std::fprintf(stderr, "mcpkit devconsole: listening on http://127.0.0.1:%u (MCP at /mcp)\n", port);
            std::fflush(stderr);
        });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcpkit devconsole: cannot listen on 127.0.0.1:%u: %s\n", arguments.port, e.what());
        return 1;
    }
}

}  // namespace mcpkit::cli
