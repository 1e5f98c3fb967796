#include "devconsole/extension/ExtensionLink.hpp"

#include "devconsole/JsonFields.hpp"
#include "devconsole/capture/CaptureBuffers.hpp"

#include <boost/json.hpp>

namespace mcpkit::devconsole {
namespace json = boost::json;

ExtensionLink::ExtensionLink(std::chrono::milliseconds disconnect_after) : disconnect_after_(disconnect_after) {}

bool ExtensionLink::connected_locked(Clock::time_point now) const {
    return ever_seen_ && now - last_sync_ <= disconnect_after_;
}

ExtensionLink::SyncArrival ExtensionLink::saw_sync(const json::object& request, std::string_view client_header) {
    std::vector<std::pair<std::uint64_t, std::function<void()>>> waiters;
    SyncArrival arrival;
    {
        std::lock_guard lock(mutex_);
        auto now = Clock::now();
        arrival.silence_ended = reported_connected_ && !connected_locked(now);
        ever_seen_ = true;
        reported_connected_ = true;
        last_sync_ = now;
        last_sync_wall_ms_ = wall_clock_ms();
        ++syncs_;
        auto session = json_fields::text(request, "ext_session_id");
        if (!session.empty() && session != session_id_) {
            if (!session_id_.empty()) {
                ++session_changes_;
                arrival.session_changed = true;
            }
            session_id_ = std::move(session);
        }
        if (!client_header.empty()) client_.assign(client_header);
        if (auto version = json_fields::text(request, "extension_version"); !version.empty())
            extension_version_ = std::move(version);
        if (auto* settings = request.if_contains("settings"); settings && settings->is_object()) {
            settings_ = settings->get_object();
            tab_.id = json_fields::integer(settings_, "tracked_tab_id");
            tab_.url = json_fields::text(settings_, "tracked_tab_url");
            tab_.title = json_fields::text(settings_, "tracked_tab_title");
            auto* enabled = settings_.if_contains("tracking_enabled");
            tab_.tracking_enabled = enabled && enabled->is_bool() ? enabled->get_bool() : tab_.id != 0;
        }
        if (auto* running = request.if_contains("in_progress"); running && running->is_array())
            in_progress_ = running->get_array();
        waiters.swap(connect_waiters_);
    }
    for (auto& [id, waiter] : waiters) waiter();
    return arrival;
}

bool ExtensionLink::check_disconnected() {
    std::lock_guard lock(mutex_);
    if (reported_connected_ && !connected_locked(Clock::now())) {
        reported_connected_ = false;
        return true;
    }
    return false;
}

bool ExtensionLink::connected() const {
    std::lock_guard lock(mutex_);
    return connected_locked(Clock::now());
}

TrackedTab ExtensionLink::tracked_tab() const {
    std::lock_guard lock(mutex_);
    return tab_;
}

json::array ExtensionLink::in_progress() const {
    std::lock_guard lock(mutex_);
    return in_progress_;
}

std::uint64_t ExtensionLink::when_connected(std::function<void()> callback) {
    {
        std::lock_guard lock(mutex_);
        if (!connected_locked(Clock::now())) {
            auto id = next_waiter_++;
            connect_waiters_.emplace_back(id, std::move(callback));
            return id;
        }
    }
    callback();
    return 0;
}

void ExtensionLink::forget_waiter(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    std::erase_if(connect_waiters_, [id](const auto& waiter) { return waiter.first == id; });
}

json::object ExtensionLink::status() const {
    std::lock_guard lock(mutex_);
    json::object status{{"extension_connected", connected_locked(Clock::now())},
                        {"extension_client_id", client_},
                        {"extension_version", extension_version_},
                        {"ext_session_id", session_id_},
                        {"syncs", syncs_},
                        {"session_changes", session_changes_},
                        {"tracking_enabled", tab_.tracking_enabled},
                        {"tracked_tab_id", tab_.id},
                        {"tracked_tab_url", tab_.url},
                        {"tracked_tab_title", tab_.title}};
    if (ever_seen_) {
        status["extension_last_seen"] = format_iso_time(last_sync_wall_ms_);
        status["extension_silent_ms"] =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - last_sync_).count();
    }
    if (auto* csp = settings_.if_contains("csp_restricted")) status["csp_restricted"] = *csp;
    if (auto* csp = settings_.if_contains("csp_level")) status["csp_level"] = *csp;
    return status;
}

}  // namespace mcpkit::devconsole
