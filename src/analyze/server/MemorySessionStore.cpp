// Sessions in this process's memory: the default, lost on exit.

#include "analyze/server/SessionStore.hpp"

#include <map>
#include <mutex>

namespace mcpkit::analyze {

namespace {

class MemorySessionStore final : public SessionStore {
public:
    std::optional<Session> load(const std::string& id) override {
        std::lock_guard lock(mutex_);
        auto found = sessions_.find(id);
        if (found == sessions_.end()) return std::nullopt;
        if (found->second.expired(now_milliseconds())) {
            sessions_.erase(found);
            return std::nullopt;
        }
        return found->second;
    }
    void save(const Session& session) override {
        std::lock_guard lock(mutex_);
        sessions_[session.id] = session;
    }
    bool remove(const std::string& id) override {
        std::lock_guard lock(mutex_);
        return sessions_.erase(id) > 0;
    }
    std::vector<Session> list() override {
        std::lock_guard lock(mutex_);
        std::vector<Session> live;
        std::int64_t now = now_milliseconds();
        for (const auto& [id, session] : sessions_) {
            if (session.expired(now)) continue;
            Session summary = session;
            summary.history.clear();
            live.push_back(std::move(summary));
        }
        return live;
    }
    std::size_t evict_expired() override {
        std::lock_guard lock(mutex_);
        std::int64_t now = now_milliseconds();
        return std::erase_if(sessions_, [&](const auto& entry) { return entry.second.expired(now); });
    }
    std::string description() const override { return "memory"; }

private:
    std::mutex mutex_;
    std::map<std::string, Session> sessions_;
};

}  // namespace

std::unique_ptr<SessionStore> make_memory_session_store() { return std::make_unique<MemorySessionStore>(); }

}  // namespace mcpkit::analyze
