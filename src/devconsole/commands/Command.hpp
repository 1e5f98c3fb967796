#pragma once
// One command for the browser extension (run a script, click, take a screenshot …) and its life:
// pending → complete | error | expired | timeout | cancelled. A command is "pending" from the
// moment it is queued until it is finalized; whether it reached the extension is told apart by
// `delivered_at`.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::devconsole {

enum class CommandStatus { pending, complete, error, expired, timeout, cancelled };
std::string_view to_string(CommandStatus status);
inline bool is_final(CommandStatus status) { return status != CommandStatus::pending; }

using Clock = std::chrono::steady_clock;

struct Command {
    std::string id;              ///< "q-<n>": how the extension names it (acks, results)
    std::string correlation_id;  ///< how MCP callers name it; unique across daemon restarts
    std::string type;            ///< what the extension runs: execute, dom_action, browser_action …
    boost::json::object params;  ///< the tool's arguments as the caller gave them
    std::int64_t tab_id = 0;     ///< 0: the tracked tab
    std::string origin;          ///< the tool call that made it, e.g. "interact execute_js"
    bool internal = false;       ///< sent by the daemon itself (a cancel): not counted, not listed

    CommandStatus status = CommandStatus::pending;
    std::string error;   ///< why it failed, expired or was cancelled
    boost::json::value result;
    int deliveries = 0;  ///< how many /sync answers carried it

    std::int64_t created_ms = 0;  ///< wall clock, for the caller
    Clock::time_point created;
    Clock::time_point delivered;  ///< first delivery (epoch: not yet)
    Clock::time_point finished;
    Clock::time_point last_sent;  ///< latest delivery, for re-sending
    bool acknowledged = false;    ///< the extension finished dispatching it (last_command_ack)

    bool was_delivered() const { return delivered != Clock::time_point{}; }
};

/// What a caller learns about its command: the state at one moment, safe to read without a lock.
struct CommandSnapshot {
    std::string id;
    std::string correlation_id;
    std::string type;
    std::string origin;
    CommandStatus status = CommandStatus::pending;
    std::string error;
    boost::json::value result;
    std::int64_t created_ms = 0;
    std::int64_t elapsed_ms = 0;  ///< created → finished (or now)
    std::int64_t delivery_ms = -1;  ///< created → first delivery; -1: not delivered
    int deliveries = 0;
    std::int64_t tab_id = 0;
};

}  // namespace mcpkit::devconsole
