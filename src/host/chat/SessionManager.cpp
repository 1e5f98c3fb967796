#include "host/chat/SessionManager.hpp"

#include "host/llm/LanguageModel.hpp"

#include "host/chat/Conversation.hpp"

#include <algorithm>
#include <cctype>

namespace mcpkit::host {

namespace {

// Ids come from pages: keep them to a shape that is safe in logs, keys and file names.
bool acceptable_id(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
    return true;
}

}  // namespace

SessionManager::SessionManager(boost::asio::any_io_executor executor, ChatStore& store)
    : executor_(std::move(executor)), store_(store) {}

std::shared_ptr<ChatSession> SessionManager::open(const std::string& id, bool& resumed) {
    auto session = open_existing(id);
    resumed = session != nullptr;
    if (session) return session;
    session = std::make_shared<ChatSession>(executor_, new_id("session"));
    session->created_at = session->last_active = now_milliseconds();
    sessions_[session->id()] = session;
    return session;
}

std::shared_ptr<ChatSession> SessionManager::open_existing(const std::string& id) {
    if (!acceptable_id(id)) return nullptr;
    if (auto it = sessions_.find(id); it != sessions_.end()) {
        catch_up_with_store(*it->second);
        return it->second;
    }
    auto stored = store_.load(id);
    if (!stored) return nullptr;
    auto session = std::make_shared<ChatSession>(executor_, id);
    session->created_at = stored->created_at;
    session->last_active = stored->last_active;
    session->in_store = true;
    session->stored_active = stored->last_active;
    take_stored(*session, *stored);
    sessions_[id] = session;
    return session;
}

void SessionManager::take_stored(ChatSession& session, StoredSession& stored) {
    session.history = std::move(stored.history);
    // The host stopped mid-answer (the copy goes once the answer is recorded): what was shown of
    // it joins the history, saying so. In a store other hosts share (Redis), a copy saved within
    // the last 30 s may be another host's answer still being written (it saves every second):
    // left alone, it is taken up by whoever loads the session once it has gone quiet.
    if (stored.unfinished && store_.shared() && now_milliseconds() - stored.unfinished->created_at < 30000)
        stored.unfinished.reset();
    if (stored.unfinished) {
        bool recorded = std::any_of(session.history.begin(), session.history.end(),
                                    [&](const ChatMessage& message) { return message.id == stored.unfinished->id; });
        try {
            if (!recorded) stored.revision = store_.append(session.id(), *stored.unfinished);
            store_.keep_unfinished(session.id(), nullptr);
        } catch (const std::exception&) {
            // Shown now all the same; the store offers it again next time.
        }
        if (!recorded) session.history.push_back(std::move(*stored.unfinished));
    }
    session.usage = stored.usage;
    // The conversation goes on with the model that last answered in it (empty: the default).
    for (auto it = session.history.rbegin(); it != session.history.rend(); ++it)
        if (it->role == Role::assistant) {
            if (is_model_name(it->model)) session.model = it->model;
            break;
        }
    session.stored_revision = stored.revision;
}

void SessionManager::catch_up_with_store(ChatSession& session) {
    // Pages still showing this copy, or a turn adding to it, make it the latest: only a session
    // nobody here watches can have moved on elsewhere.
    if (!session.in_store || session.clients() > 0 || session.turn_running) return;
    try {
        auto revision = store_.revision(session.id());
        if (!revision || *revision == session.stored_revision) return;
        if (auto stored = store_.load(session.id())) take_stored(session, *stored);
    } catch (const std::exception&) {
        // The store is unreachable now: the copy here is the best there is.
    }
}

ConversationPage SessionManager::conversations(const ConversationQuery& query) { return store_.conversations(query); }

std::optional<StoredSession> SessionManager::snapshot(const std::string& id) {
    if (!acceptable_id(id)) return std::nullopt;
    auto stored = store_.load(id);
    auto session = find(id);
    if (!stored && !session) return std::nullopt;
    if (!stored) {
        stored.emplace();
        stored->id = id;
        stored->created_at = session->created_at;
    }
    if (session) stored->history = session->history;
    return stored;
}

void SessionManager::rename(const std::string& id, const std::string& title) { store_.rename(id, title); }

std::shared_ptr<ChatSession> SessionManager::remove(const std::string& id) {
    std::shared_ptr<ChatSession> session;
    if (auto it = sessions_.find(id); it != sessions_.end()) {
        session = std::move(it->second);
        sessions_.erase(it);
        session->removed = true;
    }
    store_.remove(id);
    return session;
}

std::shared_ptr<ChatSession> SessionManager::find(const std::string& id) const {
    auto it = sessions_.find(id);
    return it == sessions_.end() ? nullptr : it->second;
}

void SessionManager::clear(ChatSession& session) {
    session.history.clear();
    session.usage = {};
    session.always_allowed.clear();
    session.view_contexts.clear();  // a new chat tears the views down
    if (!session.in_store) return;
    session.stored_revision = store_.clear(session.id());
    store_.set_usage(session.id(), session.usage);
}

void SessionManager::touch(ChatSession& session) {
    session.last_active = now_milliseconds();
    // The store hears of activity at most once a minute: its clock only decides, in days, when a
    // session is forgotten, and a write per frame would cost more than the frame.
    if (session.in_store && session.last_active - session.stored_active > 60000) {
        session.stored_active = session.last_active;
        try {
            store_.touch(session.id(), session.created_at, session.last_active);
        } catch (const std::exception&) {
            // Best effort: the store's clock only decides, in days, when the session is forgotten.
        }
    }
}

std::size_t SessionManager::cleanup(std::chrono::milliseconds memory_idle, std::chrono::milliseconds store_idle) {
    std::int64_t now = now_milliseconds();
    std::size_t evicted = std::erase_if(sessions_, [&](const auto& entry) {
        const auto& session = *entry.second;
        return session.clients() == 0 && !session.turn_running && now - session.last_active > memory_idle.count();
    });
    try {
        store_.remove_inactive(now - store_idle.count());
    } catch (const std::exception&) {
        // Busy or unreachable now; the next cleanup tries again.
    }
    return evicted;
}

std::shared_ptr<ChatSession> SessionManager::session_for_server(const std::string& server,
                                                                const std::string& calling_session) const {
    if (auto caller = find(calling_session)) return caller;
    std::shared_ptr<ChatSession> latest;
    for (const auto& [id, session] : sessions_) {
        if (session->servers_in_use.contains(server)) return session;
        if (session->clients() > 0 && (!latest || session->last_active > latest->last_active)) latest = session;
    }
    return latest;
}

}  // namespace mcpkit::host
