// `mcpkit analyze`: the code-analysis MCP server, on stdio or Streamable HTTP.

#include "cli/AnalyzeReport.hpp"
#include "cli/CommandSupport.hpp"

#include "analyze/project/AnalysisCache.hpp"
#include "analyze/server/AnalyzeServer.hpp"

#include <mcp/RandomId.hpp>
#include <mcp/server/Server.hpp>
#include <mcp/transport/BearerSecretAuthorizer.hpp>
#include <mcp/transport/StreamTransport.hpp>
#include <mcp/transport/StreamableHttpServer.hpp>

#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <cstdlib>

namespace mcpkit::cli {

void add_analyze_server_options(CLI::App& analyze, AnalyzeServerArguments& arguments) {
    analyze.add_option("--store", arguments.store,
                       "Where sessions live: memory, sqlite:PATH, or redis://[:PASSWORD@]HOST[:PORT][/DB]")
        ->capture_default_str();
    analyze.add_option("--session-ttl", arguments.session_ttl_seconds, "Default session lifetime without use, in seconds")
        ->check(CLI::Range(1, 7 * 24 * 3600))
        ->capture_default_str();
    analyze.add_option("--history", arguments.history, "Calls kept per session")->check(CLI::Range(1, 10000))->capture_default_str();
    analyze.add_option("--root", arguments.root,
                       "Directory that relative paths start from; paths resolving outside it are refused (default: "
                       "here, and confined only over --http)");
    analyze.add_flag("--allow-outside-root", arguments.allow_outside_root,
                     "stdio only: with --root, still read files outside it");
    analyze.add_option("--max-message-size", arguments.max_message_size, "Largest accepted message, in bytes")
        ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30))
        ->capture_default_str();
    analyze.add_flag("--no-cache", arguments.no_cache, "Do not keep or reuse results by file content");
    analyze.add_option("--cache", arguments.cache_path, "Cache file (default: $XDG_CACHE_HOME/mcpkit/analyze.sqlite)");
    analyze.add_option("--max-file-bytes", arguments.max_file_bytes,
                       "Refuse (analyze-file, analyze-code) or skip (analyze-project) larger sources: a syntax tree "
                       "takes up to ~50 times its source in memory")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{64} << 20))
        ->capture_default_str();
    analyze.add_option("--http", arguments.http, "Serve Streamable HTTP on HOST:PORT instead of stdio");
    analyze.add_option("--allow-host", arguments.allowed_hosts,
                       "--http: a Host name accepted (repeat; default: loopback names when bound to loopback)");
    analyze.add_flag("--no-auth", arguments.no_auth,
                     "--http: serve without the bearer secret (any program or user that reaches the port could then "
                     "read the code under --root)");
    add_protected_resource_options(analyze, arguments.auth);
    analyze.add_flag("--log-json", arguments.log_json, "Log to stderr as JSON lines");
}

int run_analyze_server(const AnalyzeServerArguments& arguments) {
    auto log = stderr_log("analyze", arguments.log_json);
    std::unique_ptr<analyze::SessionStore> store;
    try {
        store = analyze::make_session_store(arguments.store);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "mcpkit analyze: %s\n", error.what());
        return 2;
    }
    analyze::SessionPolicy policy;
    policy.max_history = arguments.history;
    policy.default_ttl_seconds = arguments.session_ttl_seconds;
    analyze::CallRunner runner(*store, policy);
    if (arguments.allow_outside_root && !arguments.http.empty()) {
        std::fprintf(stderr, "mcpkit analyze: --allow-outside-root is for the stdio server only; over HTTP every path "
                             "stays under --root\n");
        return 2;
    }
    if (arguments.http.empty() && (arguments.no_auth || !arguments.allowed_hosts.empty() || !arguments.auth.issuer.empty())) {
        std::fprintf(stderr, "mcpkit analyze: --no-auth, --allow-host and --auth-* are for --http; over stdio the "
                             "server is the child of the one client that started it\n");
        return 2;
    }
    if (arguments.no_auth && !arguments.auth.issuer.empty()) {
        std::fprintf(stderr, "mcpkit analyze: --no-auth and --auth-issuer contradict each other: give one\n");
        return 2;
    }
    analyze::AnalyzeServerOptions options;
    options.root = arguments.root;
    // Confined when a root is named, and always over HTTP, where callers are not the local user.
    options.confine_to_root = !arguments.http.empty() || (!arguments.root.empty() && !arguments.allow_outside_root);
    options.max_file_bytes = arguments.max_file_bytes;
    if (!arguments.no_cache)
        options.cache_path = arguments.cache_path.empty() ? analyze::AnalysisCache::default_path() : arguments.cache_path;

    mcp::ServerOptions server_options;
    server_options.log = log;
    server_options.instructions =
        "Code analysis with a real parser (tree-sitter) for C, C++, Python, JavaScript, TypeScript, Go, Rust and Java. "
        "Start with analyze-project for an overview, then analyze-file or get-symbols for detail. To find your way "
        "around the code use find-symbol (where is it defined), find-references (who uses it), get-call-hierarchy, "
        "get-type-hierarchy, get-change-impact (what a change reaches) and find-dead-code; their index is kept "
        "current as files change. Create a session (create-session) and pass its sessionId to build on earlier answers.";
    mcp::Server server({.name = "mcpkit-analyze", .version = std::string(analyze::analyze_version)}, server_options);
    try {
        analyze::add_analyze_tools(server, runner, options);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "mcpkit analyze: %s\n", error.what());
        return 2;
    }
    log("serving with sessions in " + store->description());

    boost::asio::io_context io(1);
    if (arguments.http.empty()) {
        mcp::StreamTransportOptions stream;
        stream.max_message_size = arguments.max_message_size;
        return mcp::serve_stdio(server, io, stream);
    }
    mcp::StreamableHttpServerOptions http;
    if (!parse_host_port(arguments.http, http.host, http.port)) {
        std::fprintf(stderr, "mcpkit analyze: --http wants HOST:PORT (e.g. 127.0.0.1:3000), got \"%s\"\n",
                     arguments.http.c_str());
        return 2;
    }
    http.log = log;
    http.max_body_bytes = arguments.max_message_size;
    http.allowed_hosts = arguments.allowed_hosts;
    // Who may read the code: OAuth tokens from --auth-issuer, else a bearer secret, unless the
    // user says --no-auth. Without either, any local user (or anyone who reaches the port) could.
    try {
        protect_http_server(arguments.auth, server, io.get_executor(), http, "http");
    } catch (const std::invalid_argument& error) {
        std::fprintf(stderr, "mcpkit analyze: %s\n", error.what());
        return 2;
    }
    if (!http.authorization && !arguments.no_auth) {
        // The environment keeps the secret out of `ps`, which shows a command line to every local user.
        const char* given = std::getenv("MCPKIT_ANALYZE_TOKEN");
        std::string secret = given && *given ? std::string(given) : mcp::random_hex(24);
        if (!given || !*given)
            std::fprintf(stderr, "mcpkit analyze: clients must send \"Authorization: Bearer %s\" (set MCPKIT_ANALYZE_TOKEN to "
                                 "choose it)\n",
                         secret.c_str());
        http.authorization = mcp::make_bearer_secret_authorizer(
            std::move(secret), "send the secret of MCPKIT_ANALYZE_TOKEN (or the one printed at start) as a bearer token");
    }
    try {
        return mcp::serve_http(server, io, std::move(http), [&](std::uint16_t port) {
            std::fprintf(stderr, "mcpkit analyze: listening on http://%s:%u/mcp\n", arguments.http.substr(0, arguments.http.rfind(':')).c_str(), port);
        });
    } catch (const std::exception& error) {
        std::fprintf(stderr, "mcpkit analyze: cannot serve HTTP on %s: %s\n", arguments.http.c_str(), error.what());
        return 1;
    }
}

}  // namespace mcpkit::cli
