// `mcpkit review` (the present_review MCP server, stdio) and `mcpkit review-panel` (the C++
// editor side: Unix socket plus a live web page).

#include "cli/CommandSupport.hpp"
#include "cli/Commands.hpp"
#include "review/IpcClient.hpp"
#include "review/ReviewPanel.hpp"
#include "review/ReviewServer.hpp"
#include "review/SocketDiscovery.hpp"

#include <mcp/Version.hpp>
#include <mcp/server/Server.hpp>
#include <mcp/transport/StreamTransport.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <cstdio>
#include <unistd.h>

namespace mcpkit::cli {

void add_review_commands(CLI::App& app, ReviewArguments& review, ReviewPanelArguments& panel) {
    auto* server = app.add_subcommand(
        "review", "Serve the present_review MCP tool over stdio; reviews go to the editor's review panel");
    server->add_option("--timeout-ms", review.timeout_ms,
                       "How long a call waits for the panel, connecting included, in milliseconds")
        ->capture_default_str()
        ->check(CLI::Range(100, 600000));
    server->add_flag("--log-json", review.log_json, "Write stderr log lines as JSON objects");
    server->add_option("--max-message-size", review.max_message_size, "Largest accepted message, in bytes")
        ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30))
        ->capture_default_str();

    auto* editor = app.add_subcommand("review-panel",
                                      "Show reviews from `mcpkit review` on a local web page that updates live");
    editor->add_option("--socket", panel.socket, "Unix socket to listen on (default: $XDG_RUNTIME_DIR/mcpkit/review.sock)");
    editor->add_option("--http", panel.http, "Address of the web page, HOST:PORT on loopback (port 0: any free port)")
        ->capture_default_str();
    editor->add_option("--editor", panel.editor,
                       "Command that opens a reference; {path}, {line} and {end} are replaced")
        ->capture_default_str();
    editor->add_option("--discovery-file", panel.discovery_file,
                       "Where to announce the socket for `mcpkit review` (default: $XDG_RUNTIME_DIR/mcpkit/"
                       "review-panel.json; '-': nowhere)");
    editor->add_flag("--log-json", panel.log_json, "Write stderr log lines as JSON objects");
}

int run_review(const ReviewArguments& arguments) {
    boost::asio::io_context io(1);
    auto log = stderr_log("review", arguments.log_json);
    mcp::ServerOptions options;
    options.log = log;
    options.instructions =
        "Call present_review to show a code review beside the user's editor instead of writing it into the chat.";
    mcp::Server server(mcp::Implementation{.name = "mcpkit-review", .version = MCP_VERSION_STRING}, std::move(options));
    review::IpcClientOptions ipc;
    ipc.locate = review::locate_panel;
    ipc.timeout = std::chrono::milliseconds(arguments.timeout_ms);
    review::IpcClient client(io.get_executor(), ipc);
    review::IpcReviewSink sink(client, log);
    char directory[4096];
    review::add_review_tools(server, sink, ::getcwd(directory, sizeof directory) ? directory : "/");
    mcp::StreamTransportOptions stream;
    stream.max_message_size = arguments.max_message_size;
    int code = mcp::serve_stdio(server, io, stream);
    client.close();
    return code;
}

int run_review_panel(const ReviewPanelArguments& arguments) {
    boost::asio::io_context io(1);
    review::ReviewPanelOptions options;
    options.socket_path = arguments.socket;
    options.editor_command = arguments.editor;
    options.discovery_file = arguments.discovery_file;
    options.log = stderr_log("review-panel", arguments.log_json);
    if (!parse_host_port(arguments.http, options.http_host, options.http_port)) {
        std::fprintf(stderr, "mcpkit review-panel: --http wants HOST:PORT (e.g. 127.0.0.1:8750), got \"%s\"\n",
                     arguments.http.c_str());
        return 2;
    }
    try {
        review::ReviewPanel panel(io, options);
        panel.start();
        // stdout: what a shell or a script needs; the rest goes to stderr.
        std::printf("export DIALECTIC_IPC_PATH=%s\n# review panel: %s\n", panel.socket_path().c_str(),
                    panel.page_url().c_str());
        std::fflush(stdout);
        boost::asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code& ec, int) {
            if (ec) return;
            panel.stop();
            io.stop();
        });
        io.run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcpkit review-panel: %s\n", e.what());
        return 1;
    }
    return 0;
}

}  // namespace mcpkit::cli
