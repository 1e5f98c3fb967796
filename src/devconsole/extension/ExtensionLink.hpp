#pragma once
// What the daemon knows of the browser extension: whether it is there (a /sync arrived within the
// last 10 s: a parked poll does not count, only arrivals do), who it is, and what it reported
// last (the tracked tab, tracking on or off, CSP limits, the commands it is running).
//
// Thread-safe. Callers waiting for the extension to come back are called on the thread of the
// /sync that brings it.

#include <boost/json/object.hpp>
#include <boost/json/array.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace mcpkit::devconsole {

struct TrackedTab {
    std::int64_t id = 0;  ///< 0: no tab is tracked
    std::string url;
    std::string title;
    bool tracking_enabled = false;
};

class ExtensionLink {
public:
    using Clock = std::chrono::steady_clock;

    explicit ExtensionLink(std::chrono::milliseconds disconnect_after = std::chrono::seconds(10));

    struct SyncArrival {
        /// It ends a silence long enough to count as a disconnect that nobody noticed yet.
        bool silence_ended = false;
        /// It comes from a new extension session (ext_session_id): a restarted service worker,
        /// which lost the commands the old one had taken.
        bool session_changed = false;
    };
    /// A /sync arrived.
    SyncArrival saw_sync(const boost::json::object& request, std::string_view client_header);
    /// Called periodically: true once when the extension has just fallen silent.
    bool check_disconnected();
    bool connected() const;
    TrackedTab tracked_tab() const;
    boost::json::array in_progress() const;
    /// Calls `callback` once the extension is connected (at once if it is). Returns an id for
    /// `forget_waiter`, which a caller that stops waiting must call (waiters are kept until then).
    std::uint64_t when_connected(std::function<void()> callback);
    void forget_waiter(std::uint64_t id);
    /// The part of /health about the extension.
    boost::json::object status() const;
    std::chrono::milliseconds disconnect_after() const { return disconnect_after_; }

private:
    bool connected_locked(Clock::time_point now) const;

    std::chrono::milliseconds disconnect_after_;
    mutable std::mutex mutex_;
    bool ever_seen_ = false;
    bool reported_connected_ = false;  ///< the state last reported through check_disconnected/saw_sync
    Clock::time_point last_sync_;
    std::int64_t last_sync_wall_ms_ = 0;
    std::string session_id_;
    std::string client_;
    std::string extension_version_;
    std::uint64_t syncs_ = 0;
    std::uint64_t session_changes_ = 0;
    TrackedTab tab_;
    boost::json::object settings_;
    boost::json::array in_progress_;
    std::vector<std::pair<std::uint64_t, std::function<void()>>> connect_waiters_;
    std::uint64_t next_waiter_ = 1;
};

}  // namespace mcpkit::devconsole
