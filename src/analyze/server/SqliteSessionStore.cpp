// Sessions in an SQLite file: they survive a restart, and several server processes on one machine
// may share the file (WAL mode, busy timeout).

#include "analyze/server/SessionStore.hpp"
#include <mcp/PrivateFiles.hpp>

#include <boost/json.hpp>
#include "common/SqliteStatement.hpp"

#include <sqlite3.h>

#include <mutex>
#include <stdexcept>

namespace mcpkit::analyze {

namespace {

using Statement = common::SqliteStatement;

class SqliteSessionStore final : public SessionStore {
public:
    explicit SqliteSessionStore(std::string path) : path_(std::move(path)) {
        // What is said in a chat (or found in code) is for this user only: 0600, with -wal and -shm.
        mcp::prepare_private_database(path_);
        if (sqlite3_open(path_.c_str(), &database_) != SQLITE_OK) {
            std::string message = database_ ? sqlite3_errmsg(database_) : "out of memory";
            sqlite3_close(database_);
            throw std::runtime_error("cannot open the session store " + path_ + ": " + message);
        }
        sqlite3_busy_timeout(database_, 5000);
        char* failure = nullptr;
        if (sqlite3_exec(database_,
                         "PRAGMA journal_mode=WAL;"
                         "CREATE TABLE IF NOT EXISTS analyze_sessions (id TEXT PRIMARY KEY, expires INTEGER NOT NULL, "
                         "data TEXT NOT NULL)",
                         nullptr, nullptr, &failure) != SQLITE_OK) {
            std::string message = failure ? failure : "unknown error";
            sqlite3_free(failure);
            sqlite3_close(database_);
            throw std::runtime_error("cannot use the session store " + path_ + ": " + message);
        }
    }
    ~SqliteSessionStore() override { sqlite3_close(database_); }

    std::optional<Session> load(const std::string& id) override {
        std::lock_guard lock(mutex_);
        Statement select(database_, "SELECT data FROM analyze_sessions WHERE id = ? AND expires >= ?");
        select.bind(1, id).bind(2, now_milliseconds());
        if (!select.step()) return std::nullopt;
        return session_from_json(boost::json::parse(select.text(0)).as_object());
    }
    void save(const Session& session) override {
        std::lock_guard lock(mutex_);
        Statement insert(database_, "INSERT OR REPLACE INTO analyze_sessions (id, expires, data) VALUES (?, ?, ?)");
        insert.bind(1, session.id)
            .bind(2, session.last_used_ms + session.ttl_seconds * 1000)
            .bind(3, boost::json::serialize(to_json(session)));
        insert.step();
    }
    bool remove(const std::string& id) override {
        std::lock_guard lock(mutex_);
        Statement erase(database_, "DELETE FROM analyze_sessions WHERE id = ?");
        erase.bind(1, id).step();
        return sqlite3_changes(database_) > 0;
    }
    std::vector<Session> list() override {
        std::lock_guard lock(mutex_);
        Statement select(database_, "SELECT data FROM analyze_sessions WHERE expires >= ? ORDER BY id");
        select.bind(1, now_milliseconds());
        std::vector<Session> sessions;
        while (select.step()) {
            Session session = session_from_json(boost::json::parse(select.text(0)).as_object());
            session.history.clear();
            sessions.push_back(std::move(session));
        }
        return sessions;
    }
    std::size_t evict_expired() override {
        std::lock_guard lock(mutex_);
        Statement erase(database_, "DELETE FROM analyze_sessions WHERE expires < ?");
        erase.bind(1, now_milliseconds()).step();
        return static_cast<std::size_t>(sqlite3_changes(database_));
    }
    std::string description() const override { return "sqlite:" + path_; }

private:
    std::string path_;
    std::mutex mutex_;
    sqlite3* database_ = nullptr;
};

}  // namespace

std::unique_ptr<SessionStore> make_sqlite_session_store(const std::string& path) {
    return std::make_unique<SqliteSessionStore>(path);
}

}  // namespace mcpkit::analyze
