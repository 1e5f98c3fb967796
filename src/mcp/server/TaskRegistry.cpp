#include "server/TaskRegistry.hpp"

#include <openssl/rand.h>

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
    if (answered) touch();
    bool last = input_requests.empty() && status == TaskStatus::input_required;
    if (last && wake) wake->cancel();
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
std::string new_task_id() {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("the random number generator failed");
    static constexpr char hex[] = "0123456789abcdef";
    std::string id;
    for (unsigned char byte : bytes) {
        id += hex[byte >> 4];
        id += hex[byte & 15];
    }
    return id;
}

}  // namespace

std::shared_ptr<ServerTask> TaskRegistry::create(const boost::asio::any_io_executor& executor, bool stateless,
                                                 std::optional<std::int64_t> ttl_ms, std::int64_t poll_interval_ms) {
    forget_expired();
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

void TaskRegistry::cancel_all() {
    for (auto& [id, task] : tasks_) {
        if (is_terminal(task->status)) continue;
        task->cancellation.cancel("the server is stopping");
        task->set_status(TaskStatus::cancelled, "The server stopped");
    }
}

void TaskRegistry::forget_expired() {
    // A finished task lives its ttl from creation; a running one is never dropped under its runner.
    auto now = std::chrono::system_clock::now();
    std::erase_if(order_, [&](const std::string& id) {
        auto& task = tasks_.at(id);
        bool expired = task->ttl_ms && is_terminal(task->status) &&
                       task->created_at + std::chrono::milliseconds(*task->ttl_ms) <= now;
        if (expired) tasks_.erase(id);
        return expired;
    });
}

}  // namespace mcp::detail
