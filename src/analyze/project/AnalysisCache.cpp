#include "analyze/project/AnalysisCache.hpp"

#include "analyze/AnalyzerFingerprint.hpp"
#include "analyze/NavigationFingerprint.hpp"
#include <mcp/PrivateFiles.hpp>

#include <boost/json.hpp>
#include <openssl/evp.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace mcpkit::analyze {

namespace {
// A report is reused only by the analyzer that made it (see src/analyze/CMakeLists.txt).
constexpr std::string_view analyzer_version = "analyze-" MCPKIT_ANALYZER_FINGERPRINT;
constexpr std::string_view navigation_version = "symbols-" MCPKIT_NAVIGATION_FINGERPRINT;
}  // namespace

std::string content_hash(std::string_view content) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(content.data(), content.size(), digest, &length, EVP_sha256(), nullptr);
    static constexpr char hex[] = "0123456789abcdef";
    std::string text(length * 2, '0');
    for (unsigned int i = 0; i < length; ++i) {
        text[2 * i] = hex[digest[i] >> 4];
        text[2 * i + 1] = hex[digest[i] & 15];
    }
    return text;
}

AnalysisCache::AnalysisCache(const std::string& path, std::string variant) : variant_(std::move(variant)) {
    std::error_code error;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
    mcp::prepare_private_database(path);
    if (sqlite3_open(path.c_str(), &database_) != SQLITE_OK) {
        std::string message = database_ ? sqlite3_errmsg(database_) : "out of memory";
        sqlite3_close(database_);
        throw std::runtime_error("cannot open the analysis cache " + path + ": " + message);
    }
    sqlite3_busy_timeout(database_, 5000);
    char* failure = nullptr;
    // `files` held an identity without change time and inode (analyze-3); it is not trusted.
    const char* schema =
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
        "CREATE TABLE IF NOT EXISTS reports (key TEXT PRIMARY KEY, report TEXT NOT NULL) WITHOUT ROWID;"
        "DROP TABLE IF EXISTS files;"
        "CREATE TABLE IF NOT EXISTS file_identities (path TEXT PRIMARY KEY, size INTEGER NOT NULL,"
        " mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, hash TEXT NOT NULL) WITHOUT ROWID;"
        "CREATE TABLE IF NOT EXISTS symbols (key TEXT PRIMARY KEY, data BLOB NOT NULL);";
    if (sqlite3_exec(database_, schema, nullptr, nullptr, &failure) != SQLITE_OK ||
        sqlite3_prepare_v2(database_, "SELECT report FROM reports WHERE key = ?", -1, &select_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v2(database_,
                           "SELECT hash FROM file_identities WHERE path = ? AND size = ? AND mtime_ns = ? AND ctime_ns = ? "
                           "AND inode = ?",
                           -1, &select_file_, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v2(database_, "SELECT data FROM symbols WHERE key = ?", -1, &select_symbols_, nullptr) != SQLITE_OK) {
        std::string message = failure ? failure : sqlite3_errmsg(database_);
        sqlite3_free(failure);
        sqlite3_finalize(select_);
        sqlite3_finalize(select_file_);
        sqlite3_finalize(select_symbols_);
        sqlite3_close(database_);
        throw std::runtime_error("cannot use the analysis cache " + path + ": " + message +
                                 " (delete the file, or analyse without the cache)");
    }
}

AnalysisCache::~AnalysisCache() {
    try {
        flush();
    } catch (...) {
    }
    sqlite3_finalize(select_);
    sqlite3_finalize(select_file_);
    sqlite3_finalize(select_symbols_);
    sqlite3_close(database_);
}

std::string AnalysisCache::key(const std::string& hash, Language language) const {
    std::string key = std::string(analyzer_version) + ":" + std::string(name(language)) + ":" + hash;
    if (!variant_.empty()) key += ":" + variant_;
    return key;
}

std::optional<FileReport> AnalysisCache::find(const std::string& hash, Language language, const std::string& path) {
    std::string wanted = key(hash, language);
    std::string text;
    {
        std::lock_guard lock(mutex_);
        sqlite3_reset(select_);
        sqlite3_bind_text(select_, 1, wanted.data(), static_cast<int>(wanted.size()), SQLITE_STATIC);
        if (sqlite3_step(select_) != SQLITE_ROW) {
            sqlite3_reset(select_);
            return std::nullopt;
        }
        text.assign(reinterpret_cast<const char*>(sqlite3_column_text(select_, 0)),
                    static_cast<std::size_t>(sqlite3_column_bytes(select_, 0)));
        sqlite3_reset(select_);
    }
    try {
        FileReport report = file_report_from_json(boost::json::parse(text).as_object());
        report.path = path;
        // Findings carry the path in their location only when rendered, so nothing else to fix.
        return report;
    } catch (const std::exception&) {
        return std::nullopt;  // written by another version or damaged: analyse again
    }
}

void AnalysisCache::store(const std::string& hash, const FileReport& report) {
    std::string text = boost::json::serialize(to_json(report));
    std::lock_guard lock(mutex_);
    pending_bytes_ += text.size();
    pending_.emplace_back(key(hash, report.language), std::move(text));
    // Written in batches: one transaction per report would be slow, all at the end would hold a
    // large tree's every report in memory.
    if (pending_bytes_ > max_pending_bytes) write_pending();
}

std::string AnalysisCache::symbols_key(const std::string& hash, Language language) const {
    return std::string(navigation_version) + ":" + std::string(name(language)) + ":" + hash;
}

std::optional<std::string> AnalysisCache::find_symbols(const std::string& hash, Language language) {
    std::string wanted = symbols_key(hash, language);
    std::lock_guard lock(mutex_);
    sqlite3_reset(select_symbols_);
    sqlite3_bind_text(select_symbols_, 1, wanted.data(), static_cast<int>(wanted.size()), SQLITE_STATIC);
    std::optional<std::string> bytes;
    if (sqlite3_step(select_symbols_) == SQLITE_ROW)
        bytes.emplace(static_cast<const char*>(sqlite3_column_blob(select_symbols_, 0)),
                      static_cast<std::size_t>(sqlite3_column_bytes(select_symbols_, 0)));
    sqlite3_reset(select_symbols_);
    return bytes;
}

void AnalysisCache::store_symbols(const std::string& hash, Language language, std::string bytes) {
    std::string key = symbols_key(hash, language);
    std::lock_guard lock(mutex_);
    pending_bytes_ += bytes.size();
    pending_symbols_.emplace_back(std::move(key), std::move(bytes));
    if (pending_bytes_ > max_pending_bytes) write_pending();
}

std::optional<std::string> AnalysisCache::known_hash(const std::string& absolute_path, const FileIdentity& identity) {
    std::lock_guard lock(mutex_);
    sqlite3_reset(select_file_);
    sqlite3_bind_text(select_file_, 1, absolute_path.data(), static_cast<int>(absolute_path.size()), SQLITE_STATIC);
    sqlite3_bind_int64(select_file_, 2, identity.size);
    sqlite3_bind_int64(select_file_, 3, identity.mtime_ns);
    sqlite3_bind_int64(select_file_, 4, identity.ctime_ns);
    sqlite3_bind_int64(select_file_, 5, identity.inode);
    std::optional<std::string> hash;
    if (sqlite3_step(select_file_) == SQLITE_ROW)
        hash.emplace(reinterpret_cast<const char*>(sqlite3_column_text(select_file_, 0)),
                     static_cast<std::size_t>(sqlite3_column_bytes(select_file_, 0)));
    sqlite3_reset(select_file_);
    return hash;
}

void AnalysisCache::remember(const std::string& absolute_path, const FileIdentity& identity, const std::string& hash) {
    std::lock_guard lock(mutex_);
    pending_files_.push_back({absolute_path, identity, hash});
}

void AnalysisCache::flush() {
    std::lock_guard lock(mutex_);
    write_pending();
}

std::string AnalysisCache::write_error() const {
    std::lock_guard lock(mutex_);
    return write_error_;
}

void AnalysisCache::write_pending() {
    if (pending_.empty() && pending_files_.empty() && pending_symbols_.empty()) return;
    // IMMEDIATE takes the write lock now (waiting up to the busy timeout for another writer),
    // so the transaction cannot fail half-way for want of it.
    bool ok = sqlite3_exec(database_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (ok) {
        sqlite3_stmt* insert_file = nullptr;
        ok = sqlite3_prepare_v2(database_,
                                "INSERT OR REPLACE INTO file_identities (path, size, mtime_ns, ctime_ns, inode, hash) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                -1, &insert_file, nullptr) == SQLITE_OK;
        for (std::size_t i = 0; ok && i < pending_files_.size(); ++i) {
            const SeenFile& file = pending_files_[i];
            sqlite3_bind_text(insert_file, 1, file.path.data(), static_cast<int>(file.path.size()), SQLITE_STATIC);
            sqlite3_bind_int64(insert_file, 2, file.identity.size);
            sqlite3_bind_int64(insert_file, 3, file.identity.mtime_ns);
            sqlite3_bind_int64(insert_file, 4, file.identity.ctime_ns);
            sqlite3_bind_int64(insert_file, 5, file.identity.inode);
            sqlite3_bind_text(insert_file, 6, file.hash.data(), static_cast<int>(file.hash.size()), SQLITE_STATIC);
            ok = sqlite3_step(insert_file) == SQLITE_DONE;
            sqlite3_reset(insert_file);
        }
        sqlite3_finalize(insert_file);
    }
    if (ok) {
        sqlite3_stmt* insert = nullptr;
        ok = sqlite3_prepare_v2(database_, "INSERT OR REPLACE INTO reports (key, report) VALUES (?, ?)", -1, &insert,
                                nullptr) == SQLITE_OK;
        for (std::size_t i = 0; ok && i < pending_.size(); ++i) {
            const auto& [entry_key, text] = pending_[i];
            sqlite3_bind_text(insert, 1, entry_key.data(), static_cast<int>(entry_key.size()), SQLITE_STATIC);
            sqlite3_bind_text(insert, 2, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
            ok = sqlite3_step(insert) == SQLITE_DONE;
            sqlite3_reset(insert);
        }
        sqlite3_finalize(insert);
    }
    if (ok) {
        sqlite3_stmt* insert = nullptr;
        ok = sqlite3_prepare_v2(database_, "INSERT OR REPLACE INTO symbols (key, data) VALUES (?, ?)", -1, &insert,
                                nullptr) == SQLITE_OK;
        for (std::size_t i = 0; ok && i < pending_symbols_.size(); ++i) {
            const auto& [entry_key, bytes] = pending_symbols_[i];
            sqlite3_bind_text(insert, 1, entry_key.data(), static_cast<int>(entry_key.size()), SQLITE_STATIC);
            sqlite3_bind_blob(insert, 2, bytes.data(), static_cast<int>(bytes.size()), SQLITE_STATIC);
            ok = sqlite3_step(insert) == SQLITE_DONE;
            sqlite3_reset(insert);
        }
        sqlite3_finalize(insert);
    }
    if (ok) ok = sqlite3_exec(database_, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (!ok) {
        write_error_ = sqlite3_errmsg(database_);
        if (!sqlite3_get_autocommit(database_)) sqlite3_exec(database_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    pending_files_.clear();
    pending_.clear();
    pending_symbols_.clear();
    pending_bytes_ = 0;
}

std::string AnalysisCache::default_path() {
    if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
        return std::string(cache) + "/mcpkit/analyze.sqlite";
    if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/mcpkit/analyze.sqlite";
    // Never a shared name in /tmp, which another user could create first and fill.
    return (mcp::runtime_directory() / "analyze.sqlite").string();
}

}  // namespace mcpkit::analyze
