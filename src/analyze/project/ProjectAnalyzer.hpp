#pragma once
// Analysing a directory tree: find the source files (globs, languages, depth), analyse them in
// parallel with a bounded number of files in memory, reuse cached reports for unchanged content,
// and sum up: per-language totals, hotspots, the dependency graph.

#include "analyze/metrics/FileAnalyzer.hpp"
#include "analyze/project/DependencyGraph.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mcpkit::analyze {

struct ProjectOptions {
    std::vector<std::string> include;            ///< globs; empty: every file of a known language
    std::vector<std::string> exclude;            ///< globs, on top of the default excludes
    bool default_excludes = true;                ///< .git, node_modules, __pycache__, .venv, …
    std::set<Language> languages;                ///< empty: all
    int max_depth = -1;                          ///< directory levels below the root; -1: unlimited
    bool include_dependencies = true;            ///< build the dependency graph
    std::size_t threads = 0;                     ///< 0: one per core this process may use
    std::string cache_path;                      ///< empty: no cache
    std::int64_t max_file_bytes = 4 << 20;       ///< larger files are skipped (generated code, data)
    /// The navigation index refuses trees with more source files than this (0: no limit): a
    /// projectPath of / would otherwise index the whole disk.
    std::size_t max_files = 0;
    /// false: once a file is counted, keep only its functions worth a hotspot (the
    /// `hotspot_candidates` highest scores and the most complex) and drop its types, so that
    /// memory grows with the number of files and not with the amount of code. The totals and
    /// FileDetail::summary stay exact; FileDetail::full then lists the kept functions only.
    bool keep_details = true;
    std::size_t hotspot_candidates = 20;
    FileAnalysisOptions file;
    /// Called on the calling thread, at most every 100 ms and once at the end: files done, files in all.
    std::function<void(std::size_t done, std::size_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct LanguageTotals {
    std::size_t files = 0;
    LineCounts lines;
    std::size_t functions = 0;
    std::int64_t cyclomatic = 0;  ///< sum over functions
    double maintainability_sum = 0;
};

struct SkippedFile {
    std::string path;
    std::string reason;
};

struct ProjectReport {
    std::string root;
    std::vector<FileReport> files;                ///< sorted by path, relative to root
    std::map<std::string, LanguageTotals> by_language;  ///< by cloc's language name
    LanguageTotals totals;
    std::vector<SkippedFile> skipped;
    std::optional<DependencyGraph> dependencies;
    std::size_t cache_hits = 0;
    std::vector<std::string> warnings;  ///< what went wrong around the analysis (the cache), not in a file
    bool cancelled = false;
    double seconds = 0;
};

/// How much a function is worth a look: its complexity, weighted by its size.
double hotspot_score(const FunctionMetrics& function);

/// Throws std::invalid_argument naming the problem (no such directory, a bad glob).
ProjectReport analyze_project(const std::string& root, const ProjectOptions& options);

/// `hotspots`: the functions most worth a look, by cyclomatic complexity weighted by size.
/// How much of each file a project report carries: nothing, a one-line summary, or the whole
/// FileReport (every function and finding; what `mcpkit analyze report --json` prints).
enum class FileDetail { none, summary, full };

boost::json::object to_json(const ProjectReport& report, std::size_t hotspots = 20,
                            FileDetail files = FileDetail::summary);

}  // namespace mcpkit::analyze
