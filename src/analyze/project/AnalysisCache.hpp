#pragma once
// File reports keyed by a hash of the file's content (and the analyzer's version and the
// language), in an SQLite file: a repeated run over an unchanged tree parses nothing.

#include "analyze/metrics/FileReport.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace mcpkit::analyze {

/// SHA-256 of `content`, in hex.
std::string content_hash(std::string_view content);

class AnalysisCache {
public:
    /// Opens (creating) the cache at `path`. Throws std::runtime_error naming the path on failure.
    explicit AnalysisCache(const std::string& path);
    ~AnalysisCache();
    AnalysisCache(const AnalysisCache&) = delete;
    AnalysisCache& operator=(const AnalysisCache&) = delete;

    /// The stored report for this content, with `path` filled in; none if absent or unreadable.
    std::optional<FileReport> find(const std::string& hash, Language language, const std::string& path);
    /// Queued; written in one transaction by flush().
    void store(const std::string& hash, const FileReport& report);
    void flush();

    /// `$XDG_CACHE_HOME/mcpkit/analyze.sqlite`, else `~/.cache/mcpkit/analyze.sqlite`.
    static std::string default_path();

private:
    std::mutex mutex_;
    sqlite3* database_ = nullptr;
    sqlite3_stmt* select_ = nullptr;
    std::vector<std::pair<std::string, std::string>> pending_;  ///< key, report JSON
};

}  // namespace mcpkit::analyze
