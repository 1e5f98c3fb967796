#pragma once
// Where a server's tasks are seen by its other instances. The instance that runs a task keeps it
// in memory and publishes its state here at each change; an instance that does not hold a task
// reads it here (tasks/get), leaves answers and cancel requests here (tasks/update, tasks/cancel),
// and the running instance picks those up within a quarter of a second. One server alone needs
// none. Calls come from the server's thread and may block briefly; they throw std::runtime_error
// when the store cannot be reached.

#include "mcp/Export.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// Where a server's tasks are shared with its other instances (see make_redis_task_store); one server
/// alone needs none. Calls may block briefly and throw std::runtime_error when the store is unreachable.
class MCP_API TaskStore {
public:
    virtual ~TaskStore() = default;
    /// The task's state (JSON text, as the server writes it), kept for `ttl`.
    virtual void save(const std::string& task, std::string_view state, std::chrono::milliseconds ttl) = 0;
    /// The task's state as last saved, or nothing when it is unknown or has expired.
    virtual std::optional<std::string> load(const std::string& task) = 0;
    /// Answers to the task's questions left by another instance (a JSON object's text).
    virtual void add_answers(const std::string& task, std::string_view answers) = 0;
    /// The answers left since the last call, oldest first.
    virtual std::vector<std::string> take_answers(const std::string& task) = 0;
    /// Asks the instance running the task to cancel it (tasks/cancel received elsewhere).
    virtual void request_cancel(const std::string& task) = 0;
    /// Whether another instance asked for the task to be cancelled.
    virtual bool cancel_requested(const std::string& task) = 0;
};

}  // namespace mcp
