#pragma once
// The seed's session manager: sessions by id, made on first contact, loaded from the store when
// a page resumes one this process has not seen (after a restart, or from another instance over
// Redis) or one another instance has served since, evicted from memory when nobody watches them,
// and removed from the store after a long silence.

#include "host/chat/ChatSession.hpp"
#include "host/store/ChatStore.hpp"

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <string>

namespace mcpkit::host {

class SessionManager {
public:
    SessionManager(boost::asio::any_io_executor executor, ChatStore& store);

    /// The session `id` if it exists here or in the store (`resumed` true), else a new one.
    std::shared_ptr<ChatSession> open(const std::string& id, bool& resumed);
    /// The session `id` if it exists here or in the store; null otherwise.
    std::shared_ptr<ChatSession> open_existing(const std::string& id);
    std::shared_ptr<ChatSession> find(const std::string& id) const;
    /// The stored conversations, newest first, a page at a time (the page's list).
    ConversationPage conversations(const ConversationQuery& query);
    void rename(const std::string& id, const std::string& title);
    /// The conversation `id` as stored, with the history this process holds when it holds one
    /// (for an export); nothing when there is no such conversation.
    std::optional<StoredSession> snapshot(const std::string& id);
    /// Forgets a conversation here and in the store; returns it if it was in memory (its turn
    /// and pages are the caller's to end).
    std::shared_ptr<ChatSession> remove(const std::string& id);
    /// Forgets the session's history and token count (the page's "New chat").
    void clear(ChatSession& session);
    /// Records activity (memory and store).
    void touch(ChatSession& session);
    /// Drops from memory the sessions without pages or a turn, idle for `memory_idle`; removes
    /// from the store those idle for `store_idle`. Returns how many left memory.
    std::size_t cleanup(std::chrono::milliseconds memory_idle, std::chrono::milliseconds store_idle);

    const std::map<std::string, std::shared_ptr<ChatSession>>& sessions() const { return sessions_; }
    /// The session that should answer a server's own request: the one whose call it was made
    /// during (`calling_session`, when known), else one with a call to that server running, else
    /// the most recently active one with a page open.
    std::shared_ptr<ChatSession> session_for_server(const std::string& server, const std::string& calling_session) const;

private:
    void take_stored(ChatSession& session, StoredSession& stored);
    /// Another instance sharing the store may have served the session since this one kept it.
    void catch_up_with_store(ChatSession& session);

    boost::asio::any_io_executor executor_;
    ChatStore& store_;
    std::map<std::string, std::shared_ptr<ChatSession>> sessions_;
};

}  // namespace mcpkit::host
