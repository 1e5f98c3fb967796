#include "host/store/ChatStore.hpp"

#include "common/StoreLocation.hpp"

#include <map>
#include <stdexcept>

namespace mcpkit::host {

namespace {

// For tests and throwaway runs: nothing survives the process.
class MemoryChatStore final : public ChatStore {
public:
    std::optional<StoredSession> load(const std::string& id) override {
        auto it = sessions_.find(id);
        if (it == sessions_.end()) return std::nullopt;
        return it->second;
    }
    void touch(const std::string& id, std::int64_t created_at, std::int64_t now) override {
        auto& session = sessions_[id];
        if (session.id.empty()) {
            session.id = id;
            session.created_at = created_at;
        }
        session.last_active = now;
    }
    std::optional<std::int64_t> revision(const std::string&) override { return std::nullopt; }
    std::int64_t append(const std::string& id, const ChatMessage& message) override {
        auto& session = sessions_[id];
        session.history.push_back(message);
        return ++session.revision;
    }
    void set_usage(const std::string& id, const TokenUsage& usage) override { sessions_[id].usage = usage; }
    std::int64_t clear(const std::string& id) override {
        auto& session = sessions_[id];
        session.history.clear();
        return ++session.revision;
    }
    std::size_t remove_inactive(std::int64_t before) override {
        return std::erase_if(sessions_, [&](const auto& entry) { return entry.second.last_active < before; });
    }
    std::string description() const override { return "memory"; }

private:
    std::map<std::string, StoredSession> sessions_;
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
