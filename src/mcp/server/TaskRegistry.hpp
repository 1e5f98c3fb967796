#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The server's tasks: one record per tool call that runs as a task, shared by every session
// (2026-07-28 requests are independent; a task made by one may be polled or cancelled by
// another). Touched on the server's thread only.

#include "mcp/Cancellation.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace mcp::detail {

class ServerSession;

/// The 2026-07-28 extension's identifier, in capabilities and in client _meta.
inline constexpr std::string_view tasks_extension = "io.modelcontextprotocol/tasks";

enum class TaskStatus { working, input_required, completed, failed, cancelled };
std::string_view to_string(TaskStatus status);
inline bool is_terminal(TaskStatus status) {
    return status == TaskStatus::completed || status == TaskStatus::failed || status == TaskStatus::cancelled;
}

struct ServerTask {
    std::string id;
    bool stateless = true;  ///< the 2026 extension; else 2025-11-25's experimental tasks
    TaskStatus status = TaskStatus::working;
    std::string status_message;
    std::chrono::system_clock::time_point created_at;
    std::chrono::system_clock::time_point last_updated_at;
    std::optional<std::int64_t> ttl_ms;  ///< none: kept until the server ends
    std::int64_t poll_interval_ms = 500;
    boost::json::object result;  ///< completed (2025: also a failed tool result)
    boost::json::object error;   ///< failed with a protocol error: {code, message, data?}
    /// Questions outstanding (their keys as the client sees them), and the answers so far.
    boost::json::object input_requests;
    boost::json::object input_responses;
    /// The handler's own key for each key the client sees (keys are never reused in a task).
    std::map<std::string, std::string> handler_key;
    std::set<std::string> keys_used;
    CancellationSource cancellation;
    /// Wakes the runner when every question is answered, or on cancel.
    std::shared_ptr<boost::asio::steady_timer> wake;
    /// 2025: tasks/result calls waiting for the end.
    std::vector<std::shared_ptr<boost::asio::steady_timer>> waiting_for_end;
    /// 2025: the session that made it (tasks/list and the questions go there).
    std::weak_ptr<ServerSession> session;
    /// Who made it, when the request carried a verified token: only they may see it.
    std::string owner;
    /// What the handler's context points at, kept alive for the task's life.
    boost::json::object params;
    /// Called after each change (publishes the task to the shared store, if any).
    std::function<void(const ServerTask&)> on_change;
    /// A task another instance runs, as read from the shared store: its fields as published.
    std::optional<boost::json::object> remote_fields;

    void touch() {
        last_updated_at = std::chrono::system_clock::now();
        if (on_change) on_change(*this);
    }
    /// Moves to a new status and wakes whoever waits.
    void set_status(TaskStatus next, std::string message = {});
    /// Takes the answers to questions still outstanding (others are ignored); true if that was
    /// the last of them.
    bool apply_answers(const boost::json::object& answers);
};

std::optional<TaskStatus> task_status_from(std::string_view text);

class TaskRegistry {
public:
    /// Nullptr when `max_tasks` are held already.
    std::shared_ptr<ServerTask> create(const boost::asio::any_io_executor& executor, bool stateless,
                                       std::optional<std::int64_t> ttl_ms, std::int64_t poll_interval_ms,
                                       std::size_t max_tasks);
    /// The task, or nullptr if there is none (or it expired).
    std::shared_ptr<ServerTask> find(const std::string& id);
    /// The tasks of a 2025 session, newest last.
    std::vector<std::shared_ptr<ServerTask>> of_session(const ServerSession* session);
    /// How many tasks `owner` holds (running or kept after they finished).
    std::size_t held_by(const std::string& owner);

private:
    void forget_expired();
    std::unordered_map<std::string, std::shared_ptr<ServerTask>> tasks_;
    std::vector<std::string> order_;
};

}  // namespace mcp::detail
