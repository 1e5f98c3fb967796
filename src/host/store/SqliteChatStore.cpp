// Sessions in an SQLite file (WAL): a table of sessions and one of their messages, so a turn
// appends rows rather than rewriting the history. A session's revision is its last message's
// sequence number (never reused, 0 once cleared), so two instances may share the file. The list
// of conversations reads the sessions table alone, in the order of an index (its time of last
// message, then id), so its first page costs the same with ten conversations or ten thousand.

#include "host/store/ChatStore.hpp"
#include <mcp/PrivateFiles.hpp>

#include "common/SqliteStatement.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <sqlite3.h>

#include <limits>
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
             "CREATE INDEX IF NOT EXISTS host_messages_by_session ON host_messages(session_id, seq);"
             "CREATE TABLE IF NOT EXISTS host_approvals (qualified_name TEXT PRIMARY KEY, server TEXT NOT NULL, "
             "tool TEXT NOT NULL, since INTEGER NOT NULL);");
        add_conversation_columns();
    }
    ~SqliteChatStore() override { sqlite3_close(database_); }

    std::optional<StoredSession> load(const std::string& id) override {
        Statement session(database_,
                          "SELECT created_at, last_active, usage, unfinished, COALESCE(title, '') FROM host_sessions "
                          "WHERE id = ?");
        session.bind(1, id);
        if (!session.step()) return std::nullopt;
        StoredSession stored;
        stored.id = id;
        stored.created_at = session.integer(0);
        stored.last_active = session.integer(1);
        boost::system::error_code ec;
        json::value usage = json::parse(session.text(2), ec);
        if (!ec) stored.usage = usage_from_json(usage);
        stored.title = session.text(4);
        if (std::string unfinished = session.text(3); !unfinished.empty()) stored.unfinished = stored_message(unfinished);
        Statement messages(database_, "SELECT message, seq FROM host_messages WHERE session_id = ? ORDER BY seq");
        messages.bind(1, id);
        while (messages.step()) {
            stored.revision = messages.integer(1);
            // A damaged row costs that message, not the session.
            if (auto message = stored_message(messages.text(0))) stored.history.push_back(std::move(*message));
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
        std::int64_t revision = sqlite3_last_insert_rowid(database_);
        Statement listed(database_, "UPDATE host_sessions SET updated_at = ?, title = COALESCE(title, ?) WHERE id = ?");
        listed.bind(1, message.created_at).bind(3, id);
        if (message.role == Role::user)
            if (std::string title = conversation_title(message); !title.empty()) listed.bind(2, title);
        listed.step();
        return revision;
    }

    std::int64_t replace_from(const std::string& id, std::size_t index, const std::vector<ChatMessage>& tail) override {
        exec("BEGIN IMMEDIATE;");
        try {
            Statement remove(database_, "DELETE FROM host_messages WHERE session_id = ?1 AND seq >= (SELECT seq FROM "
                                        "host_messages WHERE session_id = ?1 ORDER BY seq LIMIT 1 OFFSET ?2)");
            remove.bind(1, id).bind(2, static_cast<std::int64_t>(index));
            remove.step();
            std::int64_t revision = 0;
            for (const auto& message : tail) revision = append(id, message);
            exec("COMMIT;");
            // Nothing appended (a cut before a turn adds the rest): the last message left's. A
            // turn's first append moves it past every number seen.
            return tail.empty() ? *this->revision(id) : revision;
        } catch (...) {
            exec("ROLLBACK;");
            throw;
        }
    }

    void keep_unfinished(const std::string& id, const ChatMessage* message) override {
        Statement update(database_, "UPDATE host_sessions SET unfinished = ? WHERE id = ?");
        if (message) update.bind(1, json::serialize(message->to_json()));
        update.bind(2, id);
        update.step();
    }

    ConversationPage conversations(const ConversationQuery& query) override {
        auto position = conversation_position(query.after);
        Statement select(database_,
                         "SELECT id, COALESCE(title, ''), updated_at FROM host_sessions AS s "
                         "WHERE updated_at IS NOT NULL AND (updated_at, id) < (?1, ?2) "
                         "AND (?3 IS NULL OR title LIKE ?3 ESCAPE '\\' OR EXISTS (SELECT 1 FROM host_messages AS m "
                         "WHERE m.session_id = s.id AND json_extract(m.message, '$.role') IN ('user', 'assistant') "
                         "AND json_extract(m.message, '$.content') LIKE ?3 ESCAPE '\\')) "
                         "ORDER BY updated_at DESC, id DESC LIMIT ?4");
        if (position) select.bind(1, position->updated_at).bind(2, position->id);
        else select.bind(1, std::numeric_limits<std::int64_t>::max()).bind(2, std::string_view());
        if (!query.search.empty()) select.bind(3, like_pattern(query.search));
        select.bind(4, static_cast<std::int64_t>(query.limit) + 1);
        ConversationPage page;
        while (select.step()) {
            if (page.items.size() == query.limit) {
                page.next = conversation_cursor(page.items.back());
                break;
            }
            page.items.push_back({select.text(0), select.text(1), select.integer(2)});
        }
        return page;
    }

    std::vector<StoredApproval> approvals() override {
        std::vector<StoredApproval> list;
        Statement select(database_, "SELECT qualified_name, server, tool, since FROM host_approvals ORDER BY qualified_name");
        while (select.step()) {
            boost::system::error_code ec;
            json::value tool = json::parse(select.text(2), ec);
            if (ec || !tool.is_object()) continue;  // damaged: that approval is asked again
            list.push_back({select.text(0), select.text(1), std::move(tool.get_object()), select.integer(3)});
        }
        return list;
    }

    void keep_approval(const StoredApproval& approval) override {
        Statement upsert(database_, "INSERT OR REPLACE INTO host_approvals (qualified_name, server, tool, since) "
                                    "VALUES (?, ?, ?, ?)");
        upsert.bind(1, approval.qualified_name).bind(2, approval.server).bind(3, json::serialize(approval.tool));
        upsert.bind(4, approval.since);
        upsert.step();
    }

    void forget_approval(const std::string& qualified_name) override {
        Statement remove(database_, "DELETE FROM host_approvals WHERE qualified_name = ?");
        remove.bind(1, qualified_name);
        remove.step();
    }

    void rename(const std::string& id, const std::string& title) override {
        Statement update(database_, "UPDATE host_sessions SET title = ? WHERE id = ?");
        update.bind(1, title).bind(2, id);
        update.step();
    }

    void remove(const std::string& id) override {
        Statement remove(database_, "DELETE FROM host_sessions WHERE id = ?");  // its messages go with it
        remove.bind(1, id);
        remove.step();
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
        Statement unlisted(database_, "UPDATE host_sessions SET updated_at = NULL, title = NULL, unfinished = NULL WHERE id = ?");
        unlisted.bind(1, id);
        unlisted.step();
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
    /// Files written before the list of conversations have no title, time of last message or
    /// unfinished answer: the columns are added, and filled from the messages already there.
    void add_conversation_columns() {
        auto has_columns = [&] {
            Statement columns(database_, "SELECT 1 FROM pragma_table_info('host_sessions') WHERE name = 'updated_at'");
            return columns.step();
        };
        if (!has_columns()) {
            exec("BEGIN IMMEDIATE;");
            // Another host opening the same file may have added them meanwhile.
            if (has_columns()) {
                exec("COMMIT;");
                return add_conversation_index();
            }
            exec("ALTER TABLE host_sessions ADD COLUMN title TEXT;"
                 "ALTER TABLE host_sessions ADD COLUMN updated_at INTEGER;"
                 "ALTER TABLE host_sessions ADD COLUMN unfinished TEXT;"
                 "UPDATE host_sessions SET updated_at = last_active "
                 "WHERE EXISTS (SELECT 1 FROM host_messages WHERE session_id = host_sessions.id);");
            Statement firsts(database_,
                             "SELECT session_id, message FROM host_messages WHERE seq IN (SELECT MIN(seq) FROM "
                             "host_messages WHERE json_extract(message, '$.role') = 'user' GROUP BY session_id)");
            while (firsts.step())
                if (auto first = stored_message(firsts.text(1))) rename(firsts.text(0), conversation_title(*first));
            exec("COMMIT;");
        }
        add_conversation_index();
    }
    void add_conversation_index() {
        exec("CREATE INDEX IF NOT EXISTS host_sessions_by_update ON host_sessions(updated_at DESC, id DESC) "
             "WHERE updated_at IS NOT NULL;");
    }
    /// LIKE's pattern for text anywhere, its own wildcards taken literally.
    static std::string like_pattern(std::string_view search) {
        std::string pattern = "%";
        for (char c : search) {
            if (c == '%' || c == '_' || c == '\\') pattern += '\\';
            pattern += c;
        }
        return pattern + "%";
    }
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
