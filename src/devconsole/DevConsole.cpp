#include "devconsole/DevConsole.hpp"

#include <boost/json.hpp>

#include <unistd.h>

namespace mcpkit::devconsole {
namespace json = boost::json;

DevConsole::DevConsole(boost::asio::io_context& io, DevConsoleOptions options)
    : io_(io),
      options_(std::move(options)),
      buffers_(options_.capture),
      commands_(options_.commands),
      link_(options_.disconnect_after),
      watchdog_(io),
      started_ms_(wall_clock_ms()) {}

DevConsole::~DevConsole() { stop(); }

void DevConsole::start() {
    stopped_ = false;
    watch();
}

void DevConsole::stop() {
    stopped_ = true;
    watchdog_.cancel();
}

void DevConsole::watch() {
    // Four times a second: a silent extension is noticed within 250 ms of the threshold.
    watchdog_.expires_after(std::chrono::milliseconds(250));
    watchdog_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || stopped_) return;
        if (link_.check_disconnected()) {
            auto expired = commands_.expire_all("extension_disconnected: no /sync from the extension for " +
                                                std::to_string(options_.disconnect_after.count() / 1000) + " s");
            log("extension disconnected; " + std::to_string(expired) + " pending command(s) expired");
        }
        commands_.sweep();
        watch();
    });
}

std::string DevConsole::health(bool full) const {
    auto capture = link_.status();
    auto buffers = buffers_.statistics();
    const auto& logs = buffers.at("logs").as_object();
    json::object health{
        {"status", "ok"},
        {"name", "mcpkit-devconsole"},
        {"service-name", "mcpkit-devconsole"},
        {"version", daemon_version},
        {"wire_version", wire_version},
        // The fields the original extension reads.
        {"logs", json::object{{"entries", logs.at("entries")},
                              {"max_entries", logs.at("max_entries")},
                              {"dropped_count", logs.at("evicted")}}},
    };
    if (!full) {
        health["capture"] = json::object{{"available", true}, {"extension_connected", capture.at("extension_connected")}};
        return json::serialize(health);
    }
    capture["available"] = true;
    health["capture"] = std::move(capture);
    health["buffers"] = std::move(buffers);
    auto counters = commands_.counters();
    health["commands"] = json::object{{"pending", commands_.pending_count()},
                                      {"queue_cap", options_.commands.max_pending},
                                      {"queued", counters.queued},
                                      {"completed", counters.completed},
                                      {"failed", counters.failed},
                                      {"expired", counters.expired},
                                      {"timed_out", counters.timed_out},
                                      {"cancelled", counters.cancelled},
                                      {"overflowed", counters.overflowed}};
    health["artifacts"] = json::object{{"count", artifacts_.list().size()}, {"bytes", artifacts_.bytes()}};
    health["started"] = format_iso_time(started_ms_);
    health["pid"] = static_cast<std::int64_t>(::getpid());
    return json::serialize(health);
}

}  // namespace mcpkit::devconsole
