// Sessions in an SQLite file (WAL): a table of sessions and one of their messages, so a turn
// appends rows rather than rewriting the history. A session's revision is its last message's
// sequence number (never reused, 0 once cleared), so two instances may share the file.

#include "host/store/ChatStore.hpp"
#include <mcp/PrivateFiles.hpp>

#include "common/SqliteStatement.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <sqlite3.h>

#include <stdexcept>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

using Statement = common::SqliteStatement;

class SqliteChatStore final : public ChatStore {
public:
    explicit SqliteChatStore(std::string path) : path_(std::move(path)) {
        // What is said in a chat (or found in code) is for this user only: 0600, with -wal and -shm.
        mcp::prepare_private_database(path_);
        if (sqlite3_open(path_.c_str(), &database_) != SQLITE_OK) {
            std::string message = database_ ? sqlite3_errmsg(database_) : "out of memory";
            sqlite3_close(database_);
            throw std::runtime_error("cannot open the chat store " + path_ + ": " + message);
        }
        sqlite3_busy_timeout(database_, 5000);
        exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
             "CREATE TABLE IF NOT EXISTS host_sessions (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, "
             "last_active INTEGER NOT NULL, usage TEXT NOT NULL DEFAULT '{}');"
             "CREATE TABLE IF NOT EXISTS host_messages (session_id TEXT NOT NULL REFERENCES host_sessions(id) "
             "ON DELETE CASCADE, seq INTEGER PRIMARY KEY AUTOINCREMENT, message TEXT NOT NULL);"
             "CREATE INDEX IF NOT EXISTS host_messages_by_session ON host_messages(session_id, seq);");
    }
    ~SqliteChatStore() override { sqlite3_close(database_); }

    std::optional<StoredSession> load(const std::string& id) override {
        Statement session(database_, "SELECT created_at, last_active, usage FROM host_sessions WHERE id = ?");
        session.bind(1, id);
        if (!session.step()) return std::nullopt;
        StoredSession stored;
        stored.id = id;
        stored.created_at = session.integer(0);
        stored.last_active = session.integer(1);
        boost::system::error_code ec;
        json::value usage = json::parse(session.text(2), ec);
        if (!ec) stored.usage = usage_from_json(usage);
        Statement messages(database_, "SELECT message, seq FROM host_messages WHERE session_id = ? ORDER BY seq");
        messages.bind(1, id);
        while (messages.step()) {
            stored.revision = messages.integer(1);
            json::value message = json::parse(messages.text(0), ec);
            if (ec || !message.is_object()) continue;  // a damaged row costs that message, not the session
            try {
                stored.history.push_back(ChatMessage::from_json(message.get_object()));
            } catch (const std::invalid_argument&) {
            }
        }
        return stored;
    }

    std::optional<std::int64_t> revision(const std::string& id) override {
        Statement last(database_, "SELECT COALESCE(MAX(seq), 0) FROM host_messages WHERE session_id = ?");
        last.bind(1, id);
        return last.step() ? last.integer(0) : 0;
    }

    void touch(const std::string& id, std::int64_t created_at, std::int64_t now) override {
        Statement upsert(database_,
                         "INSERT INTO host_sessions (id, created_at, last_active) VALUES (?, ?, ?) "
                         "ON CONFLICT(id) DO UPDATE SET last_active = excluded.last_active");
        upsert.bind(1, id).bind(2, created_at).bind(3, now);
        upsert.step();
    }

    std::int64_t append(const std::string& id, const ChatMessage& message) override {
        Statement insert(database_, "INSERT INTO host_messages (session_id, message) VALUES (?, ?)");
        insert.bind(1, id).bind(2, json::serialize(message.to_json()));
        insert.step();
        return sqlite3_last_insert_rowid(database_);
    }

    void set_usage(const std::string& id, const TokenUsage& usage) override {
        Statement update(database_, "UPDATE host_sessions SET usage = ? WHERE id = ?");
        update.bind(1, json::serialize(usage_json(usage)))
            .bind(2, id);
        update.step();
    }

    std::int64_t clear(const std::string& id) override {
        Statement remove(database_, "DELETE FROM host_messages WHERE session_id = ?");
        remove.bind(1, id);
        remove.step();
        return 0;
    }

    std::size_t remove_inactive(std::int64_t before) override {
        Statement remove(database_, "DELETE FROM host_sessions WHERE last_active < ?");
        remove.bind(1, before);
        remove.step();
        return static_cast<std::size_t>(sqlite3_changes(database_));
    }

    std::string description() const override { return "sqlite:" + path_; }

private:
    void exec(const char* sql) {
        char* failure = nullptr;
        if (sqlite3_exec(database_, sql, nullptr, nullptr, &failure) != SQLITE_OK) {
            std::string message = failure ? failure : "unknown error";
            sqlite3_free(failure);
            throw std::runtime_error("chat store " + path_ + ": " + message);
        }
    }
    std::string path_;
    sqlite3* database_ = nullptr;
};

}  // namespace

std::unique_ptr<ChatStore> make_sqlite_chat_store(const std::string& path) {
    return std::make_unique<SqliteChatStore>(path);
}

}  // namespace mcpkit::host
