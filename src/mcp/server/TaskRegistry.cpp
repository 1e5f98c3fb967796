#include "server/TaskRegistry.hpp"

#include "mcp/RandomId.hpp"

#include <algorithm>
#include <stdexcept>

namespace mcp::detail {

std::string_view to_string(TaskStatus status) {
    switch (status) {
    case TaskStatus::working: return "working";
    case TaskStatus::input_required: return "input_required";
    case TaskStatus::completed: return "completed";
    case TaskStatus::failed: return "failed";
    case TaskStatus::cancelled: return "cancelled";
    }
    return "working";
}

std::optional<TaskStatus> task_status_from(std::string_view text) {
    for (TaskStatus status : {TaskStatus::working, TaskStatus::input_required, TaskStatus::completed,
                              TaskStatus::failed, TaskStatus::cancelled})
        if (to_string(status) == text) return status;
    return std::nullopt;
}

bool ServerTask::apply_answers(const boost::json::object& answers) {
    bool answered = false;
    for (const auto& [key, answer] : answers) {
        if (!input_requests.contains(key)) continue;
        input_requests.erase(key);
        input_responses[key] = answer;
        answered = true;
    }
    bool last = input_requests.empty() && status == TaskStatus::input_required;
    // Working again at once: input_required without outstanding questions is no state to show.
    if (last) set_status(TaskStatus::working);
    else if (answered) touch();
    return last;
}

void ServerTask::set_status(TaskStatus next, std::string message) {
    status = next;
    status_message = std::move(message);
    touch();
    if (wake) wake->cancel();
    if (is_terminal(next)) {
        for (auto& waiter : waiting_for_end) waiter->cancel();
        waiting_for_end.clear();
    }
}

namespace {

/// 128 random bits as hex: a task id is a capability, so it must not be guessable.
std::string new_task_id() { return random_hex(16); }

}  // namespace

std::shared_ptr<ServerTask> TaskRegistry::create(const boost::asio::any_io_executor& executor, bool stateless,
                                                 std::optional<std::int64_t> ttl_ms, std::int64_t poll_interval_ms,
                                                 std::size_t max_tasks) {
    forget_expired();
    if (tasks_.size() >= max_tasks) return nullptr;
    auto task = std::make_shared<ServerTask>();
    task->id = new_task_id();
    task->stateless = stateless;
    task->created_at = task->last_updated_at = std::chrono::system_clock::now();
    task->ttl_ms = ttl_ms;
    task->poll_interval_ms = poll_interval_ms;
    task->wake = std::make_shared<boost::asio::steady_timer>(executor);
    tasks_[task->id] = task;
    order_.push_back(task->id);
    return task;
}

std::shared_ptr<ServerTask> TaskRegistry::find(const std::string& id) {
    forget_expired();
    auto found = tasks_.find(id);
    return found == tasks_.end() ? nullptr : found->second;
}

std::vector<std::shared_ptr<ServerTask>> TaskRegistry::of_session(const ServerSession* session) {
    forget_expired();
    std::vector<std::shared_ptr<ServerTask>> list;
    for (const auto& id : order_) {
        auto& task = tasks_.at(id);
        if (!task->stateless && task->session.lock().get() == session) list.push_back(task);
    }
    return list;
}

std::size_t TaskRegistry::held_by(const std::string& owner) {
    forget_expired();
    std::size_t held = 0;
    for (const auto& [id, task] : tasks_) held += task->owner == owner;
    return held;
}

void TaskRegistry::forget_expired() {
    // A task lives its ttl from creation. One still running then is stopped and failed (a task
    // parked on a question nobody answers would otherwise stay for ever), and kept a minute more
    // so its client can read why; a finished one goes.
    auto now = std::chrono::system_clock::now();
    constexpr auto grace = std::chrono::minutes(1);
    std::erase_if(order_, [&](const std::string& id) {
        auto& task = tasks_.at(id);
        if (!task->ttl_ms) return false;
        auto end = task->created_at + std::chrono::milliseconds(*task->ttl_ms);
        if (end > now) return false;
        if (!is_terminal(task->status)) {
            task->cancellation.cancel("the task expired");
            task->error = boost::json::object{{"code", -32603}, {"message", "Task has expired"}};
            task->set_status(TaskStatus::failed, "Task has expired");
            return false;
        }
        if (end + grace > now && task->last_updated_at + grace > now) return false;
        tasks_.erase(id);
        return true;
    });
}

}  // namespace mcp::detail
