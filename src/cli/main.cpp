// mcpkit: one binary, one subcommand per system.

#include "cli/AnalyzeReport.hpp"
#include "cli/Commands.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
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

    CLI::App app{"mcpkit: a native toolkit for the Model Context Protocol"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "mcpkit 0.1.0");
    mcpkit::cli::EverythingArguments everything;
    mcpkit::cli::add_everything_command(app, everything);
    mcpkit::cli::ClientArguments client;
    mcpkit::cli::add_client_command(app, client);
    mcpkit::cli::ReviewArguments review;
    mcpkit::cli::ReviewPanelArguments review_panel;
    mcpkit::cli::add_review_commands(app, review, review_panel);
    CLI::App* analyze = app.add_subcommand(
        "analyze", "Code-analysis MCP server (stdio, or --http); `analyze report PATH` prints a report instead");
    analyze->require_subcommand(0, 1);
    mcpkit::cli::AnalyzeServerArguments analyze_server;
    mcpkit::cli::add_analyze_server_options(*analyze, analyze_server);
    mcpkit::cli::AnalyzeReportArguments analyze_report;
    mcpkit::cli::add_analyze_report_command(*analyze, analyze_report);

    mcpkit::cli::DevConsoleArguments devconsole;
    mcpkit::cli::add_devconsole_command(app, devconsole);

    mcpkit::cli::HostArguments host;
    mcpkit::cli::add_host_command(app, host);

    try {
        app.parse(own_argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (app.got_subcommand("everything")) return mcpkit::cli::run_everything(everything);
    if (app.got_subcommand("client")) {
        client.server_command = std::move(server_command);
        return mcpkit::cli::run_client(client);
    }
    if (app.got_subcommand("review")) return mcpkit::cli::run_review(review);
    if (analyze->got_subcommand("report")) return mcpkit::cli::run_analyze_report(analyze_report);
    if (app.got_subcommand("analyze")) return mcpkit::cli::run_analyze_server(analyze_server);
    if (app.got_subcommand("devconsole")) return mcpkit::cli::run_devconsole(devconsole);
    if (app.got_subcommand("host")) return mcpkit::cli::run_host(host);
    if (app.got_subcommand("review-panel")) return mcpkit::cli::run_review_panel(review_panel);
    return 2;
}
