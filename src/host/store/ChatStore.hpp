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

#include <boost/json/object.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::host {

struct StoredSession {
    std::string id;
    std::int64_t created_at = 0;
    std::int64_t last_active = 0;
    std::vector<ChatMessage> history;
    TokenUsage usage;
    std::int64_t revision = 0;
    std::string title;  ///< as the list of conversations shows it
    /// The answer that was being written when the host last saved it (keep_unfinished), if the
    /// host stopped before finishing it.
    std::optional<ChatMessage> unfinished;
};

/// A conversation as the page's list shows it.
struct ConversationSummary {
    std::string id;
    /// The name the user gave it, else the start of its first message (conversation_title).
    std::string title;
    std::int64_t updated_at = 0;  ///< its last message, ms since the epoch
};

/// Which conversations, newest first, a page at a time.
struct ConversationQuery {
    /// Text the title or a user's or assistant's message holds (letters compared without case,
    /// ASCII only); empty: every conversation.
    std::string search;
    /// Where the page starts: the previous page's `next`; empty: the newest.
    std::string after;
    std::size_t limit = 50;
};

struct ConversationPage {
    std::vector<ConversationSummary> items;
    /// Give back as `after` for the next page; empty when there is none.
    std::string next;
};

/// A tool the user allowed always (in every conversation, across restarts), as it was defined then.
struct StoredApproval {
    std::string qualified_name;
    std::string server;
    boost::json::object tool;  ///< mcp::Tool as JSON
    std::int64_t since = 0;
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
    /// Adds a message to the history; returns the session's revision after it. The conversation's
    /// time in the list becomes the message's, and its first user message gives its title.
    virtual std::int64_t append(const std::string& id, const ChatMessage& message) = 0;
    /// Replaces the history from message `index` on with `tail` (an edit, an answer asked again, an
    /// earlier version brought back); returns the session's revision after it.
    virtual std::int64_t replace_from(const std::string& id, std::size_t index, const std::vector<ChatMessage>& tail) = 0;
    /// Keeps the answer being written (a copy overwritten as it grows), or forgets it (nullptr)
    /// once it is appended: a host that stops mid-answer finds it in load()'s `unfinished`.
    virtual void keep_unfinished(const std::string& id, const ChatMessage* message) = 0;
    virtual void set_usage(const std::string& id, const TokenUsage& usage) = 0;
    /// Forgets the history, keeps the session; returns the session's revision after it.
    virtual std::int64_t clear(const std::string& id) = 0;
    /// The conversations with at least one message, newest first (the page's list).
    virtual ConversationPage conversations(const ConversationQuery& query) = 0;
    /// Names a conversation (the list shows the name instead of its first message).
    virtual void rename(const std::string& id, const std::string& title) = 0;
    /// Forgets a conversation: the session and its messages.
    virtual void remove(const std::string& id) = 0;
    /// The tools allowed always; keep_approval replaces one of the same name.
    virtual std::vector<StoredApproval> approvals() = 0;
    virtual void keep_approval(const StoredApproval& approval) = 0;
    virtual void forget_approval(const std::string& qualified_name) = 0;
    /// Removes sessions inactive since `before`; returns how many.
    virtual std::size_t remove_inactive(std::int64_t before) = 0;
    /// Whether other host instances may write it at the same time (Redis): one host's unfinished
    /// answer may then be another's answer still being written.
    virtual bool shared() const { return false; }
    /// "sqlite:PATH", "redis://HOST:PORT": for /health.
    virtual std::string description() const = 0;
};

// For the stores' implementations: one reading of a query whichever store holds the messages.

/// A message as a store wrote it (ChatMessage JSON); nothing when the text is damaged (a damaged
/// row costs that message, not the session).
std::optional<ChatMessage> stored_message(std::string_view text);
/// Whether `text` holds `search`, ASCII letters compared without case.
bool holds_search_text(std::string_view text, std::string_view search);
/// Whether the conversation's title or a user's or assistant's message holds `search`.
bool conversation_matches(std::string_view title, const std::vector<ChatMessage>& history, std::string_view search);
/// A page's `next`: the last item's time and id (the order is time, then id, both descending).
std::string conversation_cursor(const ConversationSummary& last);
struct ConversationPosition {
    std::int64_t updated_at = 0;
    std::string id;
    /// Whether an item comes after this position in the list's order.
    bool before(std::int64_t other_updated_at, std::string_view other_id) const {
        return other_updated_at < updated_at || (other_updated_at == updated_at && other_id < id);
    }
};
/// Reads `after`; throws std::invalid_argument when it is not a page's `next`.
std::optional<ConversationPosition> conversation_position(std::string_view after);

/// "sqlite:PATH" (or a bare path), "redis://…", or "memory". Throws std::invalid_argument or
/// std::runtime_error saying what is wrong.
std::unique_ptr<ChatStore> open_chat_store(const std::string& location);

std::unique_ptr<ChatStore> make_memory_chat_store();
std::unique_ptr<ChatStore> make_sqlite_chat_store(const std::string& path);
std::unique_ptr<ChatStore> make_redis_chat_store(const std::string& url);

}  // namespace mcpkit::host
