#pragma once
// File reports keyed by a hash of the file's content (and the analyzer's version and the
// language), in an SQLite file: a repeated run over an unchanged tree parses nothing, and files
// whose identity (size, modification and change times, inode) is unchanged are not even read.

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

/// What stat(2) says of a file, enough to tell it changed without reading it: a rewrite keeps
/// neither the change time nor (for editors that write a new file) the inode, even when tools
/// like `cp -p` or `tar x` restore the size and modification time.
struct FileIdentity {
    std::int64_t size = 0;
    std::int64_t mtime_ns = 0;
    std::int64_t ctime_ns = 0;
    std::int64_t inode = 0;
    bool operator==(const FileIdentity&) const = default;
};

class AnalysisCache {
public:
    /// Opens (creating) the cache at `path`. `variant` tells apart reports of the same content
    /// made with different settings (the finding thresholds). Throws std::runtime_error naming
    /// the path on failure.
    explicit AnalysisCache(const std::string& path, std::string variant = {});
    ~AnalysisCache();
    AnalysisCache(const AnalysisCache&) = delete;
    AnalysisCache& operator=(const AnalysisCache&) = delete;

    /// The stored report for this content, with `path` filled in; none if absent or unreadable.
    std::optional<FileReport> find(const std::string& hash, Language language, const std::string& path);
    /// Queued; written in one transaction by flush().
    void store(const std::string& hash, const FileReport& report);

    /// The navigation index's symbols of this content (SymbolsCodec bytes), if stored.
    std::optional<std::string> find_symbols(const std::string& hash, Language language);
    /// Queued like store().
    void store_symbols(const std::string& hash, Language language, std::string bytes);

    /// The content hash last seen for this file when it had this identity: an unchanged file is
    /// then neither read nor hashed again (git's index does the same).
    std::optional<std::string> known_hash(const std::string& absolute_path, const FileIdentity& identity);
    /// Queued like store(). Only for a file whose modification time is older than the run, so a
    /// file written again within the same clock tick is never taken for unchanged.
    void remember(const std::string& absolute_path, const FileIdentity& identity, const std::string& hash);
    void flush();
    /// Why the last batch could not be written (another process holding the lock too long, a
    /// full disk), or empty. The batch is dropped: a cache that misses only costs time.
    std::string write_error() const;

    /// `$XDG_CACHE_HOME/mcpkit/analyze.sqlite`, else `~/.cache/mcpkit/analyze.sqlite`.
    static std::string default_path();

private:
    static constexpr std::size_t max_pending_bytes = 8 << 20;
    void write_pending();  ///< with mutex_ held
    std::string key(const std::string& hash, Language language) const;

    mutable std::mutex mutex_;
    std::string variant_;
    sqlite3* database_ = nullptr;
    sqlite3_stmt* select_ = nullptr;
    sqlite3_stmt* select_file_ = nullptr;
    std::string symbols_key(const std::string& hash, Language language) const;
    sqlite3_stmt* select_symbols_ = nullptr;
    std::vector<std::pair<std::string, std::string>> pending_;  ///< key, report JSON
    std::vector<std::pair<std::string, std::string>> pending_symbols_;  ///< key, encoded symbols
    std::size_t pending_bytes_ = 0;
    struct SeenFile {
        std::string path;
        FileIdentity identity;
        std::string hash;
    };
    std::vector<SeenFile> pending_files_;
    std::string write_error_;
};

}  // namespace mcpkit::analyze
