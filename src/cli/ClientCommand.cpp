// `mcpkit client`: an inspector for any MCP server. It starts the server given after "--",
// performs one verb, prints the JSON result on stdout and exits non-zero with a message on
// failure.

#include "cli/Commands.hpp"
#include "cli/PrettyJson.hpp"
#include "cli/Tour.hpp"

#include <mcp/Error.hpp>
#include <mcp/Version.hpp>
#include <mcp/auth/OAuthClient.hpp>
#include <mcp/client/Client.hpp>
#include <mcp/protocol/Methods.hpp>
#include <mcp/transport/ChildProcessTransport.hpp>
#include <mcp/transport/StreamableHttpClientTransport.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <cerrno>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <optional>
#include <fstream>
#include <iostream>
#include <iterator>
#include <unistd.h>

namespace mcpkit::cli {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// The JSON text of an argument: as written, from a file (@PATH) or from stdin (-). The command
/// line holds at most 128 KiB per argument; larger arguments come through the other two.
std::string argument_text(const std::string& given, const std::string& what) {
    if (given == "-") {
        std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        return text;
    }
    if (given.starts_with('@')) {
        std::ifstream in(given.substr(1), std::ios::binary);
        if (!in) throw std::invalid_argument(what + ": cannot read " + given.substr(1) + ": " + std::strerror(errno));
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
    return given;
}

/// Arguments given as JSON must be an object.
json::object parse_object_argument(const std::string& given, const std::string& what) {
    std::string text = argument_text(given, what);
    boost::system::error_code ec;
    json::value value = json::parse(text, ec);
    if (ec) {
        std::string shown = text.size() > 200 ? text.substr(0, 200) + "…" : text;
        throw std::invalid_argument(what + " is not valid JSON (" + ec.message() + "): " + shown);
    }
    if (!value.is_object()) throw std::invalid_argument(what + " must be a JSON object, like '{\"text\": \"hi\"}'");
    return value.get_object();
}

/// OAuth 2.1 for --url: the browser sign-in on a loopback redirect, tokens kept in a 0600 file.
std::shared_ptr<mcp::auth::OAuthClient> make_authorization(asio::any_io_executor executor,
                                                           const ClientArguments& arguments) {
    mcp::auth::OAuthClientOptions oauth;
    oauth.prompt = mcp::auth::make_loopback_browser_prompt(
        executor, std::chrono::seconds(arguments.authorization_timeout_seconds));
    oauth.store = mcp::auth::make_file_token_store(
        arguments.token_file.empty() ? mcp::auth::default_token_file() : std::filesystem::path(arguments.token_file));
    oauth.client_name = "mcpkit";
    oauth.client_metadata_url = arguments.client_metadata_url;
    if (!arguments.client_id.empty()) {
        mcp::auth::ClientCredentials client;
        client.client_id = arguments.client_id;
        client.client_secret = arguments.client_secret;
        if (client.client_secret.empty())
            if (const char* secret = std::getenv("MCPKIT_CLIENT_SECRET")) client.client_secret = secret;
        oauth.client = client;
    }
    oauth.http.ca_file = arguments.ca_file;
    oauth.http.proxy = arguments.proxy;
    oauth.log = [](std::string_view message) {
        std::fprintf(stderr, "mcpkit client: %.*s\n", static_cast<int>(message.size()), message.data());
    };
    return mcp::auth::OAuthClient::create(executor, arguments.url, std::move(oauth));
}

void print(const json::value& value) { std::cout << pretty_json(value) << std::endl; }

bool progress_shown = false;

/// A progress bar on a terminal, one line per update otherwise.
void print_progress(double progress, std::optional<double> total, const std::string& message) {
    progress_shown = true;
    if (!::isatty(STDERR_FILENO)) {
        if (total) {
            std::fprintf(stderr, "progress %g / %g%s%s\n", progress, *total, message.empty() ? "" : ": ", message.c_str());
        } else {
            std::fprintf(stderr, "progress %g%s%s\n", progress, message.empty() ? "" : ": ", message.c_str());
        }
        return;
    }
    constexpr int width = 30;
    int filled = total && *total > 0 ? static_cast<int>(width * std::min(1.0, progress / *total)) : 0;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(width - filled), '.');
    std::fprintf(stderr, "\r[%s] %g / %g %s\033[K", bar.c_str(), progress, total.value_or(0), message.c_str());
}

void finish_progress() {
    if (progress_shown && ::isatty(STDERR_FILENO)) std::fprintf(stderr, "\n");
    progress_shown = false;
}

json::array to_array(const auto& items) {
    json::array out;
    for (const auto& item : items) out.push_back(item.to_json());
    return out;
}

asio::awaitable<void> run_verb(mcp::Client& client, const ClientArguments& arguments) {
    const auto& verb = arguments.verb;
    const auto& args = arguments.verb_arguments;
    auto need = [&](std::size_t count, const char* usage) {
        if (args.size() != count) throw std::invalid_argument(std::string("usage: mcpkit client ") + usage);
    };
    if (verb == "tools") {
        need(0, "tools -- COMMAND ARGS...");
        // (Values are awaited before any braced list: g++ 12 miscompiles co_await inside one.)
        json::array tools = to_array(co_await client.list_tools());
        print(json::object{{"tools", std::move(tools)}});
    } else if (verb == "call") {
        if (args.empty() || args.size() > 2) throw std::invalid_argument("usage: mcpkit client call NAME [JSON] -- COMMAND ARGS...");
        json::object tool_arguments = args.size() == 2 ? parse_object_argument(args[1], "the tool arguments") : json::object();
        // Long tools show how far they are, on stderr so stdout stays the result alone.
        mcp::RequestOptions options;
        options.on_progress = [](double progress, std::optional<double> total, const std::string& message) {
            print_progress(progress, total, message);
        };
        // A call the server runs as a task: say what it is doing while it is polled.
        std::string last_status;
        options.on_task = [&last_status](const mcp::TaskUpdate& update) {
            std::string line = update.status + (update.message.empty() ? "" : ": " + update.message);
            if (line == last_status) return;
            last_status = line;
            std::fprintf(stderr, "task %s: %s\n", update.task_id.c_str(), line.c_str());
        };
        mcp::CallToolResult result = co_await client.call_tool(args[0], std::move(tool_arguments), options);
        finish_progress();
        print(result.to_json());
        if (result.is_error) throw mcp::Error(0, "the tool reported an error (isError: true)");
    } else if (verb == "resources") {
        need(0, "resources -- COMMAND ARGS...");
        json::array resources = to_array(co_await client.list_resources());
        json::array templates = to_array(co_await client.list_resource_templates());
        print(json::object{{"resources", std::move(resources)}, {"resourceTemplates", std::move(templates)}});
    } else if (verb == "read") {
        need(1, "read URI -- COMMAND ARGS...");
        json::array contents = to_array(co_await client.read_resource(args[0]));
        print(json::object{{"contents", std::move(contents)}});
    } else if (verb == "prompts") {
        need(0, "prompts -- COMMAND ARGS...");
        json::array prompts = to_array(co_await client.list_prompts());
        print(json::object{{"prompts", std::move(prompts)}});
    } else if (verb == "prompt") {
        if (args.empty() || args.size() > 2) throw std::invalid_argument("usage: mcpkit client prompt NAME [JSON] -- COMMAND ARGS...");
        json::object prompt_arguments = args.size() == 2 ? parse_object_argument(args[1], "the prompt arguments") : json::object();
        // What the server said, as it said it: the raw result, not the typed form. (The params are
        // built outside the co_await expression: g++ 12 miscompiles braced lists inside one.)
        json::object params{{"name", args[0]}, {"arguments", std::move(prompt_arguments)}};
        print(co_await client.request(mcp::methods::prompts_get, std::move(params)));
    } else if (verb == "tour") {
        co_await tour(client, std::cout, arguments.tour_calls);
    } else {
        throw std::invalid_argument("unknown verb \"" + verb + "\": use tools, call, resources, read, prompts, prompt or tour");
    }
}

}  // namespace

void add_client_command(CLI::App& app, ClientArguments& arguments) {
    auto* command = app.add_subcommand(
        "client", "Inspect any MCP server: mcpkit client VERB [ARGS] -- COMMAND ARGS...\n"
                  "                   or: mcpkit client VERB [ARGS] --url http://HOST:PORT/mcp\n"
                  "Verbs: tools, call NAME JSON, resources, read URI, prompts, prompt NAME JSON, tour\n"
                  "JSON may be given as @FILE or - (stdin) when it is large");
    command->add_option("verb", arguments.verb, "tools | call | resources | read | prompts | prompt | tour");
    command->add_option("arguments", arguments.verb_arguments, "The verb's arguments");
    command->add_option("--protocol", arguments.protocol, "Protocol version: 2025-11-25 (default), 2026-07-28, auto, …");
    command->add_option("--timeout", arguments.timeout_seconds, "Seconds to wait for each answer")->check(CLI::PositiveNumber);
    command->add_flag("--quiet-server", arguments.quiet_stderr, "Do not copy the server's stderr to ours");
    command->add_option("--call", arguments.tour_calls,
                        "tour: also call this tool though it is not annotated read-only (repeat for several)");
    command->add_option("--url", arguments.url, "Talk to a Streamable HTTP server at this URL instead of starting one");
    command->add_option("--header", arguments.headers,
                        "\"Name: value\" sent with every HTTP request (repeat), e.g. \"Authorization: Bearer …\"")
        ->allow_extra_args(false)  // one value per --header: the verb may follow
        ->check([](const std::string& header) -> std::string {
            auto colon = header.find(':');
            if (colon == std::string::npos || colon == 0) return "--header takes \"Name: value\", as in \"Authorization: Bearer x\"";
            for (char c : header.substr(0, colon))
                if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
                    return "--header's name \"" + header.substr(0, colon) + "\" is not a header name";
            if (header.find_first_of("\r\n") != std::string::npos) return "--header may not hold a line break";
            return {};
        });
    command->add_flag("--sse", arguments.legacy_sse,
                      "The --url speaks the 2024-11-05 HTTP+SSE transport: GET it for the endpoint at once (without "
                      "--sse, a server refusing a POST there is detected and used the same way)");
    command->add_option("--ca-file", arguments.ca_file,
                        "https: trust the certificate authorities in this PEM file instead of the system's "
                        "(SSL_CERT_FILE works too)");
    command->add_option("--proxy", arguments.proxy,
                        "Reach --url through this HTTP proxy (http://[user:password@]host:port; \"\" for none). "
                        "Default: HTTPS_PROXY / HTTP_PROXY unless NO_PROXY names the host");
    command->add_flag("--no-oauth", arguments.no_oauth,
                      "--url: treat HTTP 401 as an error instead of signing in with OAuth 2.1");
    command->add_option("--client-id", arguments.client_id,
                        "--url: the OAuth client id registered with the server's authorization server (default: "
                        "a Client ID Metadata Document when given and supported, else Dynamic Client Registration)");
    command->add_option("--client-secret", arguments.client_secret,
                        "--url: the secret of --client-id (better: the MCPKIT_CLIENT_SECRET environment variable)");
    command->add_option("--client-metadata-url", arguments.client_metadata_url,
                        "--url: an https URL serving this client's metadata document, used as its client id where "
                        "the authorization server supports that");
    command->add_option("--token-file", arguments.token_file,
                        "--url: where OAuth registrations and tokens are kept (mode 0600; default: "
                        "$XDG_CONFIG_HOME/mcpkit/oauth.json)");
    command->add_option("--authorization-timeout", arguments.authorization_timeout_seconds,
                        "--url: seconds to wait for you to sign in in the browser (added to the first answer's "
                        "--timeout)")
        ->check(CLI::PositiveNumber);
    command->add_flag("--conformance", arguments.conformance,
                      "Act as the conformance suite's client: mcpkit client --conformance URL "
                      "(reads MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT)");
}

int run_client(const ClientArguments& arguments) {
    if (arguments.conformance) {
        // The suite appends the URL as the last argument.
        std::string url = !arguments.verb_arguments.empty() ? arguments.verb_arguments.back()
                          : !arguments.verb.empty()        ? arguments.verb
                                                           : arguments.url;
        if (url.empty()) {
            std::fprintf(stderr, "mcpkit client: --conformance wants the server URL as its last argument\n");
            return 2;
        }
        return run_conformance_client(url);
    }
    if (arguments.verb.empty()) {
        std::fprintf(stderr, "mcpkit client: give a verb (tools, call, resources, read, prompts, prompt, tour)\n");
        return 2;
    }
    if (arguments.server_command.empty() && arguments.url.empty()) {
        std::fprintf(stderr, "mcpkit client: give the server to start after \"--\", e.g. "
                             "mcpkit client tools -- mcpkit everything, or --url http://127.0.0.1:3000/mcp\n");
        return 2;
    }
    asio::io_context io(1);
    int exit_code = 0;
    auto work = [&]() -> asio::awaitable<void> {
        std::shared_ptr<mcp::ChildProcessTransport> transport;
        std::shared_ptr<mcp::StreamableHttpClientTransport> http;
        // Outlives the transports' shutdown: destroying it closes the connection, which would
        // drop what is still to be sent (the cancellation of a request that just timed out).
        std::optional<mcp::Client> client;
        try {
            std::shared_ptr<mcp::Transport> chosen;
            if (!arguments.url.empty()) {
                mcp::StreamableHttpClientOptions http_options;
                http_options.url = arguments.url;
                http_options.legacy_only = arguments.legacy_sse;
                http_options.ca_file = arguments.ca_file;
                http_options.proxy = arguments.proxy;
                for (const auto& header : arguments.headers) {
                    auto colon = header.find(':');
                    auto value = header.substr(colon + 1);
                    value.erase(0, value.find_first_not_of(" \t"));
                    http_options.headers[header.substr(0, colon)] = value;
                }
                http_options.log = [](std::string_view message) {
                    std::fprintf(stderr, "mcpkit client: %.*s\n", static_cast<int>(message.size()), message.data());
                };
                if (!arguments.no_oauth) http_options.authorization = make_authorization(io.get_executor(), arguments);
                http = mcp::StreamableHttpClientTransport::create(io.get_executor(), std::move(http_options));
                chosen = http;
            } else {
                mcp::ChildProcessOptions child;
                child.command = arguments.server_command.front();
                child.args.assign(arguments.server_command.begin() + 1, arguments.server_command.end());
                if (arguments.quiet_stderr) child.on_stderr_line = [](std::string_view) {};
                transport = mcp::ChildProcessTransport::spawn(io.get_executor(), std::move(child));
                chosen = transport;
            }

            mcp::ClientOptions options;
            options.info = {"mcpkit-client", MCP_VERSION_STRING};
            options.protocol_version = arguments.protocol;
            options.request_timeout = std::chrono::milliseconds(static_cast<long>(arguments.timeout_seconds * 1000));
            // A sign-in in the browser happens inside the first request: only that one waits for it.
            if (http && !arguments.no_oauth)
                options.connect_timeout = std::chrono::milliseconds(
                    static_cast<long>((arguments.timeout_seconds + arguments.authorization_timeout_seconds) * 1000));
            // An inspector has no user to ask and no model: it declines politely.
            options.on_elicitation = [](const json::object&, const mcp::ServerRequestContext&) -> asio::awaitable<json::object> {
                co_return json::object{{"action", "decline"}};
            };
            options.tasks = true;  // long tools may run as tasks; call follows them to the end
            client.emplace(options);
            co_await client->connect(chosen);
            co_await run_verb(*client, arguments);
        } catch (const mcp::Error& e) {
            if (e.code() != 0) {
                std::fprintf(stderr, "mcpkit client: error %d: %s\n", e.code(), e.what());
            } else {
                std::fprintf(stderr, "mcpkit client: %s\n", e.what());
            }
            exit_code = 1;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "mcpkit client: %s\n", e.what());
            exit_code = 1;
        }
        if (transport) {
            int server_exit = co_await transport->shutdown();
            (void)server_exit;
        }
        if (http) co_await http->shutdown();
        client.reset();
    };
    asio::co_spawn(io, work(), [](std::exception_ptr) {});
    io.run();
    return exit_code;
}

}  // namespace mcpkit::cli
