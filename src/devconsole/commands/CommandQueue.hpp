#pragma once
// The commands waiting for the extension and those recently finished: what /sync hands out, what
// tool calls wait on, and what observe({what:"command_result"}) reads later.
//
// Thread-safe: tool calls (the MCP thread) and /sync requests (HTTP threads) use it at once.
// Callbacks run without the lock held, on the thread that caused the change.
//
// Delivery follows the original extension's expectations: a command is re-sent on every /sync
// until the extension acknowledges it (last_command_ack) or sends its result, and a poll that
// finds nothing to deliver parks until a command arrives. The wake-up is level-triggered: every
// parked poll is woken, so no command waits for the next poll.

#include "devconsole/commands/Command.hpp"

#include <boost/json/array.hpp>

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace mcpkit::devconsole {

struct CommandQueueOptions {
    /// Commands pending at once; beyond, the oldest is expired (reason queue_overflow).
    std::size_t max_pending = 5;
    /// A pending command older than this is finalized as timeout.
    std::chrono::milliseconds command_timeout{std::chrono::seconds(60)};
    /// Finished commands stay readable this long (and at most `max_finished` of them).
    std::chrono::milliseconds result_retention{std::chrono::minutes(10)};
    std::size_t max_finished = 1000;
};

class CommandQueue {
public:
    using Watcher = std::function<void(const CommandSnapshot&)>;

    explicit CommandQueue(CommandQueueOptions options = {});

    /// Queues a command. When the queue was full, the oldest pending one is expired first
    /// (queue_overflow) and its watchers told. Returns the new command's snapshot.
    CommandSnapshot enqueue(std::string type, std::string correlation_prefix, boost::json::object params,
                            std::int64_t tab_id, std::string origin, bool internal = false);
    /// Calls `watcher` once when the command is finalized (at once if it already is). Returns false
    /// for an unknown correlation id.
    bool watch(const std::string& correlation_id, Watcher watcher);

    /// /sync: what to deliver now. `answer_at_once` tells whether the poll should return without
    /// parking: there are undelivered commands, or delivered ones still running (their results
    /// come with the next poll).
    struct Delivery {
        boost::json::array commands;
        bool answer_at_once = false;
    };
    Delivery take_delivery();
    /// Parks a poll: `wake` is called once, when a command is queued (or now, if one waits).
    /// Returns an id for `unpark`.
    std::uint64_t park(std::function<void()> wake);
    void unpark(std::uint64_t id);

    /// The extension finished dispatching every command up to `last_id`.
    void acknowledge(std::string_view last_id);
    /// A result from the extension: `{id, correlation_id?, status, result?, error?}`. Unknown or
    /// already finished commands are ignored (results may come twice). Returns whether it applied.
    bool apply_result(const boost::json::object& result);
    /// Whether a command not yet finished has this id or correlation id (a result for it would apply).
    bool awaits(const std::string& id_or_correlation_id) const;
    /// Finalizes a command by correlation id; returns false if unknown or already final.
    bool finalize(const std::string& correlation_id, CommandStatus status, std::string error,
                  boost::json::value result = nullptr);
    /// Cancels a pending command. Nothing for an unknown or finished one; else whether the
    /// extension had already been sent it (then it should be told to stop), decided under the
    /// same lock as the cancellation so a delivery cannot slip between.
    std::optional<bool> cancel(const std::string& correlation_id, std::string reason);
    /// Expires every pending command (the extension went away). Returns how many.
    std::size_t expire_all(std::string_view reason);
    /// Fails the commands the extension acknowledged but never answered (it restarted and lost
    /// them). Returns how many.
    std::size_t fail_acknowledged(std::string_view reason);
    /// Times out commands past command_timeout and drops results past retention.
    void sweep();

    std::optional<CommandSnapshot> find(const std::string& correlation_id) const;
    std::vector<CommandSnapshot> pending() const;
    /// Finished commands that did not complete, newest first.
    std::vector<CommandSnapshot> failed(std::size_t limit) const;
    std::size_t pending_count() const;
    struct Counters {
        std::uint64_t queued = 0, completed = 0, failed = 0, expired = 0, timed_out = 0, cancelled = 0, overflowed = 0;
    };
    Counters counters() const;

private:
    struct Finalized {
        CommandSnapshot snapshot;
        std::vector<Watcher> watchers;
    };
    std::shared_ptr<Command> find_locked(const std::string& correlation_id) const;
    /// The command a result names: by its correlation id, else by its queue id among the pending.
    std::shared_ptr<Command> command_for_locked(const std::string& correlation_id, const std::string& id) const;
    /// Takes the command by value: callers may pass a reference into pending_, which this erases.
    Finalized finalize_locked(std::shared_ptr<Command> command, CommandStatus status, std::string error,
                              boost::json::value result);
    CommandSnapshot snapshot_locked(const Command& command) const;
    void notify(std::vector<Finalized> finalized);
    std::vector<std::function<void()>> take_parked_locked();

    CommandQueueOptions options_;
    mutable std::mutex mutex_;
    std::deque<std::shared_ptr<Command>> pending_;  ///< in queue order
    std::deque<std::shared_ptr<Command>> finished_;  ///< oldest first
    std::unordered_map<std::string, std::shared_ptr<Command>> by_correlation_;
    std::unordered_map<std::string, std::vector<Watcher>> watchers_;
    std::unordered_map<std::uint64_t, std::function<void()>> parked_;
    std::uint64_t next_park_id_ = 1;
    std::uint64_t next_number_;
    Counters counters_;
};

}  // namespace mcpkit::devconsole
