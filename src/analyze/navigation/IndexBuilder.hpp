#pragma once
// Building a tree's navigation index, and keeping it current: files are found as the metrics
// report finds them (ProjectOptions: globs, languages, depth, size limit), parsed in parallel, and
// their symbols stored in the analysis cache by content hash, so a second build parses only what
// changed and an unchanged file is not even read (its identity gives its hash).

#include "analyze/navigation/CodeIndex.hpp"
#include "analyze/project/ProjectAnalyzer.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcpkit::analyze {

class AnalysisCache;

struct IndexBuild {
    std::string root;                     ///< absolute, canonical
    CodeIndex index;
    std::size_t files_parsed = 0;
    std::size_t files_from_cache = 0;
    std::vector<SkippedFile> skipped;
    std::vector<std::string> warnings;
    bool cancelled = false;
    double seconds = 0;
};

/// Throws std::invalid_argument naming the problem (no such directory, a bad glob). Uses
/// options.cache_path, threads, progress and cancel like analyze_project; ignores the metrics'.
IndexBuild build_index(const std::string& root, const ProjectOptions& options);

/// One file's symbols as the index would have them now (a path relative to `root`), or nothing when
/// the file is gone or is not one the index takes. Reads and parses; touches no index.
std::optional<FileSymbols> current_symbols(const std::string& root, const std::string& relative_path,
                                           const ProjectOptions& options, AnalysisCache* cache);

/// Re-reads one file of an index (a path relative to `root`): replaced when it still exists and is
/// one the index takes, removed when it is gone. Returns whether the index changed. What it stores
/// in the cache is written by the cache's next flush().
bool refresh_file(CodeIndex& index, const std::string& root, const std::string& relative_path,
                  const ProjectOptions& options, AnalysisCache* cache);

}  // namespace mcpkit::analyze
