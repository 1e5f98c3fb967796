#pragma once
// `mcpkit analyze` (the MCP server), `mcpkit analyze report` and the navigation commands.

#include "cli/ProtectedResource.hpp"

#include <CLI/CLI.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mcpkit::cli {

struct AnalyzeReportArguments {
    std::string path;
    bool json = false;
    bool no_cache = false;
    std::string cache_path;
    std::vector<std::string> include;
    std::vector<std::string> exclude;
    std::vector<std::string> languages;
    int max_depth = -1;
    std::size_t threads = 0;
    int hotspots = 10;
    std::string progress = "auto";
    std::int64_t max_file_bytes = 4 << 20;
};

struct AnalyzeServerArguments {
    std::string store = "memory";
    int session_ttl_seconds = 3600;
    std::size_t history = 50;
    std::string root;
    bool no_cache = false;
    std::string cache_path;
    std::int64_t max_file_bytes = 4 << 20;
    std::string http;
    bool log_json = false;
    bool allow_outside_root = false;
    std::size_t max_message_size = 16u << 20;
    std::vector<std::string> allowed_hosts;  ///< --allow-host: Host names accepted beyond loopback
    bool no_auth = false;                    ///< --no-auth: --http without a bearer secret
    ProtectedResourceArguments auth;         ///< --auth-*: OAuth 2.1 instead of the bearer secret
};
void add_analyze_server_options(CLI::App& analyze, AnalyzeServerArguments& arguments);
int run_analyze_server(const AnalyzeServerArguments& arguments);

void add_analyze_report_command(CLI::App& analyze, AnalyzeReportArguments& arguments);

/// What the report and the navigation commands share: a progress bar of files on stderr (when
/// `mode` is always, or auto and stderr is a terminal), and Ctrl-C that stops the run and prints
/// what is done (a second one ends the process).
struct FileProgress {
    std::function<void(std::size_t done, std::size_t total)> draw;  ///< empty when not shown
    const std::atomic<bool>* interrupted = nullptr;
};
FileProgress file_progress(const std::string& mode, const char* noun);
int run_analyze_report(const AnalyzeReportArguments& arguments);

/// `analyze find|refs|callers|callees|types|dead|impact` (AnalyzeNavigate.cpp).
struct AnalyzeNavigationArguments {
    std::string command;  ///< which of them was given
    std::string root = ".";
    std::string target;
    std::string kind;
    std::string path;
    bool json = false;
    bool tsv = false;
    bool no_cache = false;
    std::string cache_path;
    std::size_t limit = 100;
    std::size_t offset = 0;
    int depth = 2;
    bool up = false;
    bool include_exported = false;
    std::string base = "HEAD";
    std::string diff_file;
    std::string progress = "auto";
    std::int64_t max_file_bytes = 4 << 20;
};
void add_analyze_navigation_commands(CLI::App& analyze, AnalyzeNavigationArguments& arguments);
int run_analyze_navigation(const AnalyzeNavigationArguments& arguments);

}  // namespace mcpkit::cli
