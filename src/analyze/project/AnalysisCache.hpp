#pragma once
// File reports keyed by a hash of the file's content (and the analyzer's version and the
// language), in an SQLite file: a repeated run over an unchanged tree parses nothing, and files
// whose size and modification time are unchanged are not even read.

#include "analyze/metrics/FileReport.hpp"

#include <cstdint>
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

    /// The content hash last seen for this file when it had this size and modification time:
    /// an unchanged file is then neither read nor hashed again (git's index does the same).
    std::optional<std::string> known_hash(const std::string& absolute_path, std::int64_t size, std::int64_t mtime_ns);
    /// Queued like store(). Only for a file whose modification time is older than the run, so a
    /// file written again within the same clock tick is never taken for unchanged.
    void remember(const std::string& absolute_path, std::int64_t size, std::int64_t mtime_ns, const std::string& hash);
    void flush();

    /// `$XDG_CACHE_HOME/mcpkit/analyze.sqlite`, else `~/.cache/mcpkit/analyze.sqlite`.
    static std::string default_path();

private:
    static constexpr std::size_t max_pending_bytes = 8 << 20;
    void write_pending();  ///< with mutex_ held

    std::mutex mutex_;
    sqlite3* database_ = nullptr;
    sqlite3_stmt* select_ = nullptr;
    sqlite3_stmt* select_file_ = nullptr;
    std::vector<std::pair<std::string, std::string>> pending_;  ///< key, report JSON
    std::size_t pending_bytes_ = 0;
    struct SeenFile {
        std::string path;
        std::int64_t size;
        std::int64_t mtime_ns;
        std::string hash;
    };
    std::vector<SeenFile> pending_files_;
};

}  // namespace mcpkit::analyze
