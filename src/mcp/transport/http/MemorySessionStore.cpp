// The default SessionStore: a map in this process, with the same expiry and limits a shared
// store enforces.

#include "mcp/transport/SessionStore.hpp"

#include <deque>
#include <mutex>
#include <unordered_map>

namespace mcp {
namespace {

using Clock = std::chrono::steady_clock;

/// The most event data one session keeps for replay; the oldest events go first past it.
constexpr std::size_t max_event_bytes_per_session = std::size_t{64} << 20;

struct StreamEvent {
    std::string stream;
    StoredEvent event;
};

struct SessionEntry {
    std::vector<std::string> setup;
    std::chrono::seconds idle_timeout{0};
    Clock::time_point expires;
    std::deque<StreamEvent> events;
    std::size_t event_bytes = 0;  ///< the data of `events`
    std::unordered_map<std::string, StreamRecord> streams;
};

class MemorySessionStore final : public SessionStore {
public:
    bool create(const std::string& session, std::string_view initialize_message, std::size_t max_sessions,
                std::chrono::seconds idle_timeout) override {
        std::lock_guard lock(mutex_);
        purge_expired();
        if (sessions_.size() >= max_sessions || sessions_.contains(session)) return false;
        auto& entry = sessions_[session];
        entry.setup.emplace_back(initialize_message);
        entry.idle_timeout = idle_timeout;
        entry.expires = Clock::now() + idle_timeout;
        return true;
    }

    std::optional<std::vector<std::string>> load(const std::string& session) override {
        std::lock_guard lock(mutex_);
        auto* entry = live(session);
        if (!entry) return std::nullopt;
        return entry->setup;
    }

    std::size_t append_setup(const std::string& session, std::string_view message) override {
        std::lock_guard lock(mutex_);
        auto* entry = live(session);
        if (!entry) return 0;
        entry->setup.emplace_back(message);
        return entry->setup.size();
    }

    std::size_t touch(const std::string& session) override {
        std::lock_guard lock(mutex_);
        auto* entry = live(session);
        if (!entry) return 0;
        entry->expires = Clock::now() + entry->idle_timeout;
        return entry->setup.size();
    }

    bool remove(const std::string& session) override {
        std::lock_guard lock(mutex_);
        return sessions_.erase(session) > 0;
    }

    std::size_t count() override {
        std::lock_guard lock(mutex_);
        purge_expired();
        return sessions_.size();
    }

    void append_event(const std::string& session, const std::string& stream, std::uint64_t sequence,
                      std::string_view data, std::size_t max_events) override {
        std::lock_guard lock(mutex_);
        auto* entry = live(session);
        if (!entry) return;
        entry->events.push_back(StreamEvent{stream, StoredEvent{sequence, std::string(data)}});
        entry->event_bytes += data.size();
        // Weighed as well as counted: 1024 events of a large tool result each would be gigabytes.
        while (entry->events.size() > max_events ||
               (entry->event_bytes > max_event_bytes_per_session && entry->events.size() > 1)) {
            entry->event_bytes -= entry->events.front().event.data.size();
            entry->events.pop_front();
        }
    }

    std::vector<StoredEvent> events_after(const std::string& session, const std::string& stream,
                                          std::uint64_t after_sequence) override {
        std::lock_guard lock(mutex_);
        std::vector<StoredEvent> found;
        if (auto* entry = live(session)) {
            for (const auto& item : entry->events)
                if (item.stream == stream && item.event.sequence > after_sequence) found.push_back(item.event);
        }
        return found;
    }

    void open_stream(const std::string& session, const std::string& stream, const std::string& owner,
                     std::string_view request) override {
        std::lock_guard lock(mutex_);
        if (auto* entry = live(session)) entry->streams[stream] = StreamRecord{owner, std::string(request)};
    }

    void finish_stream(const std::string& session, const std::string& stream) override {
        std::lock_guard lock(mutex_);
        if (auto* entry = live(session)) entry->streams.erase(stream);
    }

    std::optional<StreamRecord> find_stream(const std::string& session, const std::string& stream) override {
        std::lock_guard lock(mutex_);
        if (auto* entry = live(session))
            if (auto it = entry->streams.find(stream); it != entry->streams.end()) return it->second;
        return std::nullopt;
    }

    bool adopt_stream(const std::string& session, const std::string& stream, const std::string& previous_owner,
                      const std::string& new_owner) override {
        std::lock_guard lock(mutex_);
        auto* entry = live(session);
        if (!entry) return false;
        auto it = entry->streams.find(stream);
        if (it == entry->streams.end() || it->second.owner != previous_owner) return false;
        it->second.owner = new_owner;
        return true;
    }

    void heartbeat(const std::string& instance, std::chrono::milliseconds ttl) override {
        std::lock_guard lock(mutex_);
        instances_[instance] = Clock::now() + ttl;
    }

    bool alive(const std::string& instance) override {
        std::lock_guard lock(mutex_);
        auto it = instances_.find(instance);
        return it != instances_.end() && it->second > Clock::now();
    }

private:
    SessionEntry* live(const std::string& session) {
        auto it = sessions_.find(session);
        if (it == sessions_.end()) return nullptr;
        if (it->second.expires <= Clock::now()) {
            sessions_.erase(it);
            return nullptr;
        }
        return &it->second;
    }

    void purge_expired() {
        auto now = Clock::now();
        std::erase_if(sessions_, [now](const auto& item) { return item.second.expires <= now; });
    }

    std::mutex mutex_;
    std::unordered_map<std::string, SessionEntry> sessions_;
    std::unordered_map<std::string, Clock::time_point> instances_;
};

}  // namespace

std::shared_ptr<SessionStore> make_memory_session_store() { return std::make_shared<MemorySessionStore>(); }

}  // namespace mcp
