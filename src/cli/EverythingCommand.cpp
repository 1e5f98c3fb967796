// `mcpkit everything`: the conformance suite's fixture server, over stdio or Streamable HTTP.

#include "cli/Commands.hpp"
#include "cli/CommandSupport.hpp"
#include "everything/EverythingServer.hpp"

#include "common/StoreLocation.hpp"

#include <mcp/server/Server.hpp>
#include <mcp/store/RedisStores.hpp>
#include <mcp/transport/StreamableHttpServer.hpp>

#include <boost/json/serialize.hpp>

#include <cstdio>
#include <ctime>

namespace mcpkit::cli {

void add_everything_command(CLI::App& app, EverythingArguments& arguments) {
    auto* command = app.add_subcommand("everything", "Serve the MCP conformance fixture (every feature) over stdio");
    command->add_option("--max-message-size", arguments.max_message_size, "Largest accepted message, in bytes")
        ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30))
        ->capture_default_str();
    command->add_flag("--log-json", arguments.log_json, "Write stderr log lines as JSON objects");
    command->add_option("--poll-us", arguments.poll_microseconds,
                        "Microseconds to poll stdin before sleeping while the client answers quickly (0: never)")
        ->check(CLI::Range(0, 10000));
    command->add_option("--http", arguments.http,
                        "Serve Streamable HTTP on HOST:PORT (e.g. 127.0.0.1:3000) instead of stdio");
    command->add_option("--path", arguments.http_path, "HTTP endpoint path")->capture_default_str();
    command->add_option("--http-threads", arguments.http_threads,
                        "Threads parsing HTTP besides the server's own (default: usable cores - 1)")
        ->check(CLI::Range(0, 256));
    command->add_option("--allow-host", arguments.allowed_hosts,
                        "Host name accepted in the Host header (repeat; default: loopback names when bound "
                        "to loopback)");
    command->add_option("--allow-origin", arguments.allowed_origins, "Origin accepted besides the allowed hosts");
    command->add_option("--max-sessions", arguments.max_sessions, "Sessions at once")->capture_default_str();
    command->add_option("--max-sessions-per-user", arguments.max_sessions_per_user,
                        "--auth-issuer: sessions one user (token subject) may hold at once")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))
        ->capture_default_str();
    command->add_option("--max-tasks-per-user", arguments.max_tasks_per_user,
                        "--auth-issuer: tasks one user (token subject) may hold at once")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))
        ->capture_default_str();
    command->add_option("--session-timeout", arguments.session_timeout_seconds,
                        "Seconds before an idle session ends")
        ->capture_default_str()
        ->check(CLI::Range(1, 7 * 24 * 3600));
    command->add_option("--tls-cert", arguments.tls_certificate,
                        "Serve HTTPS: the PEM certificate chain (with --tls-key; read again on SIGHUP)")
        ->check(CLI::ExistingFile);
    command->add_option("--tls-key", arguments.tls_key, "The private key of --tls-cert (PEM)")->check(CLI::ExistingFile);
    command->add_option("--store", arguments.store,
                        "Where HTTP sessions and SSE events live: memory, or redis://HOST:PORT[/DB] to share them "
                        "with other instances")
        ->capture_default_str();
    add_protected_resource_options(*command, arguments.auth);
}

namespace {

int serve_everything_http(mcp::Server& server, boost::asio::io_context& io, const EverythingArguments& arguments,
                          std::function<void(std::string_view)> log) {
    mcp::StreamableHttpServerOptions options;
    if (!parse_host_port(arguments.http, options.host, options.port)) {
        std::fprintf(stderr, "mcpkit everything: --http wants HOST:PORT (e.g. 127.0.0.1:3000), got \"%s\"\n",
                     arguments.http.c_str());
        return 2;
    }
    options.path = arguments.http_path;
    if (arguments.http_threads >= 0) options.http_threads = static_cast<std::size_t>(arguments.http_threads);
    options.allowed_hosts = arguments.allowed_hosts;
    options.allowed_origins = arguments.allowed_origins;
    options.max_sessions = arguments.max_sessions;
    options.max_sessions_per_principal = arguments.max_sessions_per_user;
    options.session_idle_timeout = std::chrono::seconds(arguments.session_timeout_seconds);
    options.max_body_bytes = arguments.max_message_size;
    options.tls_certificate_file = arguments.tls_certificate;
    options.tls_private_key_file = arguments.tls_key;
    options.log = std::move(log);
    StoreLocationRules rules;
    rules.sqlite = false;  // sessions and tasks live in memory or in a Redis shared by instances
    StoreLocation store;
    try {
        store = parse_store_location(arguments.store, rules);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "mcpkit everything: %s\n", e.what());
        return 2;
    }
    if (store.kind == StoreLocation::Kind::redis) {
        try {
            options.store = mcp::make_redis_session_store(store.url);
            server.set_task_store(mcp::make_redis_task_store(store.url));  // tasks seen by every instance
        } catch (const std::exception& e) {
            std::fprintf(stderr, "mcpkit everything: --store: %s\n", e.what());
            return 1;
        }
    }
    std::string shown_host = options.host.find(':') == std::string::npos ? options.host : "[" + options.host + "]";
    std::string scheme = options.tls_certificate_file.empty() ? "http" : "https";
    try {
        protect_http_server(arguments.auth, server, io.get_executor(), options, scheme);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "mcpkit everything: %s\n", e.what());
        return 2;
    }
    try {
        return mcp::serve_http(server, io, std::move(options), [&](std::uint16_t port) {
            std::fprintf(stderr, "mcpkit everything: listening on %s://%s:%u%s\n", scheme.c_str(), shown_host.c_str(),
                         port, arguments.http_path.c_str());
        });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcpkit everything: cannot serve HTTP on %s: %s\n", arguments.http.c_str(), e.what());
        return 1;
    }
}

}  // namespace

int run_everything(const EverythingArguments& arguments) {
    boost::asio::io_context io(1);
    mcp::ServerOptions options = everything::server_options();
    options.max_tasks_per_owner = arguments.max_tasks_per_user;
    // stdout carries only protocol; what the server has to say goes to stderr.
    options.log = stderr_log("everything", arguments.log_json);
    auto log = options.log;
    mcp::Server server(everything::server_info(), std::move(options));
    everything::register_fixture(server, io.get_executor());
    if (!arguments.http.empty()) return serve_everything_http(server, io, arguments, log);
    mcp::StreamTransportOptions stream;
    stream.max_message_size = arguments.max_message_size;
    stream.poll_before_wait = std::chrono::microseconds(arguments.poll_microseconds);
    return mcp::serve_stdio(server, io, stream);
}

}  // namespace mcpkit::cli
