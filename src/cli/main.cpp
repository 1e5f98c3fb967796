// mcpkit: one binary, one subcommand per system.

#include "cli/AnalyzeReport.hpp"
#include "cli/Commands.hpp"

#include <mcp/PrivateFiles.hpp>
#include <mcp/Version.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string_view>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    // Everything after "--" is the command of a server to start; CLI11 must not see it.
    std::vector<std::string> server_command;
    int own_argc = argc;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0) {
            own_argc = i;
            for (int j = i + 1; j < argc; ++j) server_command.emplace_back(argv[j]);
            break;
        }
    }

    // Only the subcommand asked for is defined (all of them for --help, --version or a typo): a
    // long-running daemon then never runs, nor keeps resident, the set-up code of the others.
    static constexpr std::string_view subcommands[] = {"everything", "client",     "review", "review-panel",
                                                       "analyze",    "devconsole", "host"};
    std::string asked = own_argc > 1 ? argv[1] : "";
    bool known = std::find(std::begin(subcommands), std::end(subcommands), asked) != std::end(subcommands);
    auto wanted = [&](std::string_view name) { return !known || asked == name; };

    CLI::App app{"mcpkit: a native toolkit for the Model Context Protocol"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "mcpkit " MCP_VERSION_STRING);
    mcpkit::cli::EverythingArguments everything;
    if (wanted("everything")) mcpkit::cli::add_everything_command(app, everything);
    mcpkit::cli::ClientArguments client;
    if (wanted("client")) mcpkit::cli::add_client_command(app, client);
    mcpkit::cli::ReviewArguments review;
    mcpkit::cli::ReviewPanelArguments review_panel;
    if (wanted("review") || wanted("review-panel")) mcpkit::cli::add_review_commands(app, review, review_panel);
    CLI::App* analyze = nullptr;
    mcpkit::cli::AnalyzeServerArguments analyze_server;
    mcpkit::cli::AnalyzeReportArguments analyze_report;
    mcpkit::cli::AnalyzeNavigationArguments analyze_navigation;
    if (wanted("analyze")) {
        analyze = app.add_subcommand(
            "analyze", "Code-analysis MCP server (stdio, or --http); `analyze report PATH` prints a report instead");
        analyze->require_subcommand(0, 1);
        mcpkit::cli::add_analyze_server_options(*analyze, analyze_server);
        mcpkit::cli::add_analyze_report_command(*analyze, analyze_report);
        mcpkit::cli::add_analyze_navigation_commands(*analyze, analyze_navigation);
    }
    mcpkit::cli::DevConsoleArguments devconsole;
    if (wanted("devconsole")) mcpkit::cli::add_devconsole_command(app, devconsole);
    mcpkit::cli::HostArguments host;
    if (wanted("host")) mcpkit::cli::add_host_command(app, host);

    try {
        app.parse(own_argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    // Exactly one subcommand was parsed (require_subcommand(1)); the others may not be defined.
    std::string chosen = app.get_subcommands().front()->get_name();
    try {
        if (chosen == "everything") return mcpkit::cli::run_everything(everything);
        if (chosen == "client") {
            client.server_command = std::move(server_command);
            return mcpkit::cli::run_client(client);
        }
        if (chosen == "review") return mcpkit::cli::run_review(review);
        if (chosen == "analyze" && analyze->got_subcommand("report")) return mcpkit::cli::run_analyze_report(analyze_report);
        if (chosen == "analyze" && !analyze_navigation.command.empty())
            return mcpkit::cli::run_analyze_navigation(analyze_navigation);
        if (chosen == "analyze") return mcpkit::cli::run_analyze_server(analyze_server);
        if (chosen == "devconsole") return mcpkit::cli::run_devconsole(devconsole);
        if (chosen == "host") return mcpkit::cli::run_host(host);
        if (chosen == "review-panel") return mcpkit::cli::run_review_panel(review_panel);
        return 2;
    } catch (const mcp::PrivateDirectoryError& e) {
        // A runtime or state directory that another user could read: refuse to start, say why.
        std::fprintf(stderr, "mcpkit %s: %s\n", chosen.c_str(), e.what());
        return 1;
    }
}
