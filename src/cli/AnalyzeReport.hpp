#pragma once
// `mcpkit analyze` (the MCP server) and `mcpkit analyze report`.

#include <CLI/CLI.hpp>

#include <cstdint>
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
};
void add_analyze_server_options(CLI::App& analyze, AnalyzeServerArguments& arguments);
int run_analyze_server(const AnalyzeServerArguments& arguments);

void add_analyze_report_command(CLI::App& analyze, AnalyzeReportArguments& arguments);
int run_analyze_report(const AnalyzeReportArguments& arguments);

}  // namespace mcpkit::cli
