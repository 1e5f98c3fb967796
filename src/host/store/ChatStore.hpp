#pragma once
// Where sessions live between connections and restarts: SQLite by default (one machine, history
// survives a restart), or Redis so that several host instances behind a load balancer continue
// the same conversation whichever one a WebSocket reaches. Calls block briefly (a local file or
// a nearby Redis) and run on the host's thread.
//
// A shared store (Redis, or one SQLite file used by two instances) may be written by another
// instance while this one keeps the session in memory: each write moves the session's revision,
// and an instance compares the revision it last wrote or read with the store's before it serves
// a session again (a page that went A → B → A gets B's turns).

#include "host/history/ChatMessage.hpp"
#include "host/history/TokenUsage.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcpkit::host {

struct StoredSession {
    std::string id;
    std::int64_t created_at = 0;
    std::int64_t last_active = 0;
    std::vector<ChatMessage> history;
    TokenUsage usage;
    std::int64_t revision = 0;
};

class ChatStore {
public:
    virtual ~ChatStore() = default;
    virtual std::optional<StoredSession> load(const std::string& id) = 0;
    /// The session's revision now, to compare with one seen before; nothing for a store that only
    /// this process writes (memory), where the copy in memory is always the latest.
    virtual std::optional<std::int64_t> revision(const std::string& id) = 0;
    /// Creates the session if new; records activity.
    virtual void touch(const std::string& id, std::int64_t created_at, std::int64_t now) = 0;
    /// Adds a message to the history; returns the session's revision after it.
    virtual std::int64_t append(const std::string& id, const ChatMessage& message) = 0;
    virtual void set_usage(const std::string& id, const TokenUsage& usage) = 0;
    /// Forgets the history, keeps the session; returns the session's revision after it.
    virtual std::int64_t clear(const std::string& id) = 0;
    /// Removes sessions inactive since `before`; returns how many.
    virtual std::size_t remove_inactive(std::int64_t before) = 0;
    /// "sqlite:PATH", "redis://HOST:PORT": for /health.
    virtual std::string description() const = 0;
};

/// "sqlite:PATH" (or a bare path), "redis://…", or "memory". Throws std::invalid_argument or
/// std::runtime_error saying what is wrong.
std::unique_ptr<ChatStore> open_chat_store(const std::string& location);

std::unique_ptr<ChatStore> make_memory_chat_store();
std::unique_ptr<ChatStore> make_sqlite_chat_store(const std::string& path);
std::unique_ptr<ChatStore> make_redis_chat_store(const std::string& url);

}  // namespace mcpkit::host
