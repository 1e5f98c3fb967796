// `mcpkit analyze report PATH`: the analysis of a file or a tree, for people (a text report, with
// a progress bar on stderr) or for programs (--json).

#include "cli/AnalyzeReport.hpp"

#include "analyze/metrics/FileAnalyzer.hpp"
#include "analyze/project/AnalysisCache.hpp"
#include "analyze/project/ProjectAnalyzer.hpp"
#include "analyze/project/SourceFile.hpp"
#include "cli/PrettyJson.hpp"

#include <boost/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>

namespace mcpkit::cli {

namespace json = boost::json;
using namespace mcpkit::analyze;

namespace {

std::atomic<bool> interrupted{false};
const char* progress_noun = "files";

void draw_progress(std::size_t done, std::size_t total) {
    constexpr int width = 30;
    int filled = total ? static_cast<int>(double(done) / double(total) * width) : width;
    std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu %s", filled, "##############################", width - filled, "", done, total,
                 progress_noun);
    if (done == total) std::fputc('\n', stderr);
    std::fflush(stderr);
}

void print_text(const ProjectReport& report, std::size_t hotspot_count) {
    std::printf("%s: %zu files in %.2f s", report.root.c_str(), report.files.size(), report.seconds);
    if (report.cache_hits) std::printf(" (%zu from the cache)", report.cache_hits);
    std::printf("%s\n\n", report.cancelled ? " — CANCELLED, partial" : "");
    std::printf("%-16s %7s %9s %9s %9s %9s %7s %6s\n", "Language", "files", "blank", "comment", "code", "functions",
                "avg cc", "avg mi");
    auto row = [](const std::string& language, const LanguageTotals& totals) {
        std::printf("%-16s %7zu %9lld %9lld %9lld %9zu %7.2f %6.1f\n", language.c_str(), totals.files,
                    static_cast<long long>(totals.lines.blank), static_cast<long long>(totals.lines.comment),
                    static_cast<long long>(totals.lines.code), totals.functions,
                    totals.functions ? double(totals.cyclomatic) / double(totals.functions) : 0.0,
                    totals.files ? totals.maintainability_sum / double(totals.files) : 0.0);
    };
    for (const auto& [language, totals] : report.by_language) row(language, totals);
    if (report.by_language.size() > 1) row("SUM", report.totals);

    json::object summary = to_json(report, hotspot_count, FileDetail::none);
    const json::array& hotspots = summary["hotspots"].as_array();
    if (!hotspots.empty()) {
        // Numbers first, in fixed columns: names and paths vary too much in length to align.
        std::printf("\nHotspots (complex and long):\n     cc  cognitive  lines  where\n");
        for (const json::value& value : hotspots) {
            const json::object& hotspot = value.as_object();
            std::printf("  %5lld  %9lld  %5lld  %s %s\n", static_cast<long long>(hotspot.at("cyclomatic").as_int64()),
                        static_cast<long long>(hotspot.at("cognitive").as_int64()),
                        static_cast<long long>(hotspot.at("lines").as_int64()),
                        std::string(hotspot.at("location").as_string()).c_str(),
                        std::string(hotspot.at("function").as_string()).c_str());
        }
    }
    const json::object& rules = summary["findingsByRule"].as_object();
    if (!rules.empty()) {
        std::printf("\nFindings:");
        for (const auto& [rule, count] : rules) std::printf("  %s %lld", std::string(rule).c_str(), static_cast<long long>(count.as_int64()));
        std::printf("\n");
        for (const json::value& value : summary["errors"].as_array()) {
            const json::object& error = value.as_object();
            std::printf("  %s: %s: %s\n", std::string(error.at("location").as_string()).c_str(),
                        std::string(error.at("rule").as_string()).c_str(),
                        std::string(error.at("message").as_string()).c_str());
        }
    }
    if (report.dependencies) {
        std::printf("\nDependencies: %zu internal edges, %zu external modules, %zu cycles\n",
                    report.dependencies->edges.size(), report.dependencies->external.size(),
                    report.dependencies->cycles.size());
        std::size_t shown = 0;
        for (const auto& cycle : report.dependencies->cycles) {
            if (shown++ == 10) break;
            std::printf("  cycle:");
            for (int index : cycle) std::printf(" %s", report.files[static_cast<std::size_t>(index)].path.c_str());
            std::printf("\n");
        }
    }
    if (!report.skipped.empty())
        std::printf("\nSkipped %zu file%s (see --json for why)\n", report.skipped.size(), report.skipped.size() == 1 ? "" : "s");
    for (const std::string& warning : report.warnings) std::fprintf(stderr, "mcpkit analyze: %s\n", warning.c_str());
}

void print_file_text(const FileReport& file) {
    std::printf("%s (%s): %lld lines: %lld code, %lld comment, %lld blank; maintainability %.1f\n", file.path.c_str(),
                std::string(name(file.language)).c_str(), static_cast<long long>(file.lines.total),
                static_cast<long long>(file.lines.code), static_cast<long long>(file.lines.comment),
                static_cast<long long>(file.lines.blank), file.maintainability_index);
    if (!file.functions.empty()) std::printf("     cc  cognitive  nesting  lines  where\n");
    for (const FunctionMetrics& function : file.functions)
        std::printf("  %5d  %9d  %7d  %5d  %s:%d %s\n", function.cyclomatic, function.cognitive, function.max_nesting,
                    function.lines(), file.path.c_str(), function.start_line, function.name.c_str());
    for (const Finding& finding : file.findings)
        std::printf("  %s:%d: %s: %s\n", file.path.c_str(), finding.line, finding.rule.c_str(), finding.message.c_str());
}

}  // namespace

FileProgress file_progress(const std::string& mode, const char* noun) {
    FileProgress progress;
    progress_noun = noun;
    if (mode == "always" || (mode == "auto" && ::isatty(STDERR_FILENO))) progress.draw = draw_progress;
    // The first Ctrl-C stops the run and prints what is done; a second one ends the process at once.
    std::signal(SIGINT, [](int) {
        interrupted.store(true);
        std::signal(SIGINT, SIG_DFL);
    });
    progress.interrupted = &interrupted;
    return progress;
}

void add_analyze_report_command(CLI::App& analyze, AnalyzeReportArguments& arguments) {
    CLI::App* report = analyze.add_subcommand("report", "Analyse a file or a directory tree and print a report");
    report->add_option("path", arguments.path, "File or directory to analyse")->required();
    report->add_flag("--json", arguments.json, "Print the report as JSON (every file, function and finding)");
    report->add_flag("--no-cache", arguments.no_cache, "Analyse every file again instead of reusing cached results");
    report->add_option("--cache", arguments.cache_path, "Cache file (default: $XDG_CACHE_HOME/mcpkit/analyze.sqlite)");
    report->add_option("--include", arguments.include, "Only files matching these globs (e.g. 'src/**/*.py')");
    report->add_option("--exclude", arguments.exclude, "Skip files and directories matching these globs");
    report->add_option("--language", arguments.languages, "Only these languages (c, cpp, python, javascript, …)");
    report->add_option("--max-depth", arguments.max_depth, "Directory levels to descend (default: all)");
    report->add_option("--max-file-bytes", arguments.max_file_bytes,
                       "Skip larger files (a syntax tree takes up to ~50 times its source in memory)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{64} << 20))
        ->capture_default_str();
    report->add_option("--threads", arguments.threads, "Worker threads (default: one per core)");
    report->add_option("--hotspots", arguments.hotspots, "How many hotspots to list")->capture_default_str();
    report->add_option("--progress", arguments.progress, "Progress bar on stderr: auto (when a terminal), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->capture_default_str();
}

int run_analyze_report(const AnalyzeReportArguments& arguments) {
    std::error_code error;
    if (std::filesystem::is_regular_file(arguments.path, error)) {
        // One file: the same analysis, checks and messages as the analyze-file tool.
        try {
            FileReport file = analyze_file(arguments.path, std::nullopt, FileAnalysisOptions{}, arguments.max_file_bytes);
            if (arguments.json)
                std::printf("%s\n", pretty_json(to_json(file)).c_str());
            else
                print_file_text(file);
            return 0;
        } catch (const SourceFileError& failure) {
            std::fprintf(stderr, "mcpkit analyze: %s\n", failure.what());
            return 2;
        }
    }
    ProjectOptions options;
    options.keep_details = arguments.json;  // the text report needs totals and hotspots only
    options.hotspot_candidates = static_cast<std::size_t>(std::max(arguments.hotspots, 1));
    options.include = arguments.include;
    options.exclude = arguments.exclude;
    for (const std::string& text : arguments.languages) {
        auto language = parse_language(text);
        if (!language) {
            std::fprintf(stderr, "mcpkit analyze: --language %s: unknown; use c, cpp, python, javascript, typescript, "
                                 "tsx, go, rust or java\n", text.c_str());
            return 2;
        }
        options.languages.insert(*language);
    }
    options.max_depth = arguments.max_depth;
    options.max_file_bytes = arguments.max_file_bytes;
    options.threads = arguments.threads;
    if (!arguments.no_cache) options.cache_path = arguments.cache_path.empty() ? AnalysisCache::default_path() : arguments.cache_path;
    FileProgress progress = file_progress(arguments.progress, "files");
    bool show_progress = static_cast<bool>(progress.draw);
    options.progress = progress.draw;
    options.cancel = progress.interrupted;
    try {
        ProjectReport report = analyze_project(arguments.path, options);
        if (show_progress && report.cancelled) std::fputc('\n', stderr);  // the bar stopped short of its own line end
        if (arguments.json)
            std::printf("%s\n", pretty_json(to_json(report, static_cast<std::size_t>(arguments.hotspots), FileDetail::full)).c_str());
        else
            print_text(report, static_cast<std::size_t>(arguments.hotspots));
        return report.cancelled ? 130 : 0;
    } catch (const std::exception& failure) {
        std::fprintf(stderr, "mcpkit analyze: %s\n", failure.what());
        return 2;
    }
}

}  // namespace mcpkit::cli
