#include "host/store/ChatStore.hpp"

#include "common/StoreLocation.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>

namespace mcpkit::host {

std::optional<ChatMessage> stored_message(std::string_view text) {
    boost::system::error_code ec;
    boost::json::value message = boost::json::parse(text, ec);
    if (ec || !message.is_object()) return std::nullopt;
    try {
        return ChatMessage::from_json(message.get_object());
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

bool holds_search_text(std::string_view text, std::string_view search) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    auto found = std::search(text.begin(), text.end(), search.begin(), search.end(),
                             [&](char a, char b) { return lower(a) == lower(b); });
    return found != text.end() || search.empty();
}

bool conversation_matches(std::string_view title, const std::vector<ChatMessage>& history, std::string_view search) {
    if (holds_search_text(title, search)) return true;
    return std::any_of(history.begin(), history.end(), [&](const ChatMessage& message) {
        return message.role != Role::tool && holds_search_text(message.content, search);
    });
}

std::string conversation_cursor(const ConversationSummary& last) {
    return std::to_string(last.updated_at) + "/" + last.id;
}

std::optional<ConversationPosition> conversation_position(std::string_view after) {
    if (after.empty()) return std::nullopt;
    auto slash = after.find('/');
    ConversationPosition position;
    auto [end, error] = std::from_chars(after.data(), after.data() + (slash == std::string_view::npos ? 0 : slash),
                                        position.updated_at);
    if (slash == std::string_view::npos || slash == 0 || error != std::errc() || end != after.data() + slash)
        throw std::invalid_argument("after must be the \"next\" of the previous page of conversations");
    position.id = std::string(after.substr(slash + 1));
    return position;
}

namespace {

// For tests and throwaway runs: nothing survives the process.
class MemoryChatStore final : public ChatStore {
public:
    std::optional<StoredSession> load(const std::string& id) override {
        auto it = sessions_.find(id);
        if (it == sessions_.end()) return std::nullopt;
        StoredSession stored = it->second.stored;
        stored.title = it->second.title;
        return stored;
    }
    void touch(const std::string& id, std::int64_t created_at, std::int64_t now) override {
        auto& session = sessions_[id].stored;
        if (session.id.empty()) {
            session.id = id;
            session.created_at = created_at;
        }
        session.last_active = now;
    }
    std::optional<std::int64_t> revision(const std::string&) override { return std::nullopt; }
    std::int64_t append(const std::string& id, const ChatMessage& message) override {
        auto& session = sessions_[id];
        session.stored.history.push_back(message);
        session.updated_at = message.created_at;
        if (session.title.empty() && message.role == Role::user) session.title = conversation_title(message);
        return ++session.stored.revision;
    }
    std::int64_t replace_from(const std::string& id, std::size_t index, const std::vector<ChatMessage>& tail) override {
        auto& history = sessions_[id].stored.history;
        if (index < history.size()) history.resize(index);
        history.insert(history.end(), tail.begin(), tail.end());
        return ++sessions_[id].stored.revision;
    }
    void keep_unfinished(const std::string& id, const ChatMessage* message) override {
        auto& unfinished = sessions_[id].stored.unfinished;
        if (message) unfinished = *message;
        else unfinished.reset();
    }
    void set_usage(const std::string& id, const TokenUsage& usage) override { sessions_[id].stored.usage = usage; }
    std::int64_t clear(const std::string& id) override {
        auto& session = sessions_[id];
        session.stored.history.clear();
        session.updated_at = 0;
        session.title.clear();
        return ++session.stored.revision;
    }
    ConversationPage conversations(const ConversationQuery& query) override {
        auto position = conversation_position(query.after);
        std::vector<ConversationSummary> found;
        for (const auto& [id, session] : sessions_) {
            if (session.updated_at == 0 || (position && !position->before(session.updated_at, id))) continue;
            if (!query.search.empty() && !conversation_matches(session.title, session.stored.history, query.search))
                continue;
            found.push_back({id, session.title, session.updated_at});
        }
        std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
            return a.updated_at != b.updated_at ? a.updated_at > b.updated_at : a.id > b.id;
        });
        ConversationPage page;
        if (found.size() > query.limit) {
            found.resize(query.limit);
            page.next = conversation_cursor(found.back());
        }
        page.items = std::move(found);
        return page;
    }
    void rename(const std::string& id, const std::string& title) override {
        if (auto it = sessions_.find(id); it != sessions_.end()) it->second.title = title;
    }
    void remove(const std::string& id) override { sessions_.erase(id); }
    std::vector<StoredApproval> approvals() override {
        std::vector<StoredApproval> list;
        for (const auto& [name, approval] : approvals_) list.push_back(approval);
        return list;
    }
    void keep_approval(const StoredApproval& approval) override { approvals_[approval.qualified_name] = approval; }
    void forget_approval(const std::string& qualified_name) override { approvals_.erase(qualified_name); }
    std::size_t remove_inactive(std::int64_t before) override {
        return std::erase_if(sessions_, [&](const auto& entry) { return entry.second.stored.last_active < before; });
    }
    std::string description() const override { return "memory"; }

private:
    struct Kept {
        StoredSession stored;
        std::string title;
        std::int64_t updated_at = 0;
    };
    std::map<std::string, Kept> sessions_;
    std::map<std::string, StoredApproval> approvals_;
};

}  // namespace

std::unique_ptr<ChatStore> make_memory_chat_store() { return std::make_unique<MemoryChatStore>(); }

std::unique_ptr<ChatStore> open_chat_store(const std::string& text) {
    StoreLocationRules rules;
    rules.bare_path_is_sqlite = true;
    StoreLocation location = parse_store_location(text, rules);
    switch (location.kind) {
    case StoreLocation::Kind::sqlite: return make_sqlite_chat_store(location.path);
    case StoreLocation::Kind::redis: return make_redis_chat_store(location.url);
    case StoreLocation::Kind::memory: break;
    }
    return make_memory_chat_store();
}

}  // namespace mcpkit::host
