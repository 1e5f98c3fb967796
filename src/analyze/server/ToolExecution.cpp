#include "analyze/server/ToolExecution.hpp"

#include <stdexcept>

namespace mcpkit::analyze {

std::string_view to_string(CallState state) {
    switch (state) {
    case CallState::idle: return "idle";
    case CallState::tool_selected: return "toolSelected";
    case CallState::parameters_set: return "parametersSet";
    case CallState::executing: return "executing";
    case CallState::succeeded: return "succeeded";
    case CallState::failed: return "failed";
    case CallState::cancelled: return "cancelled";
    }
    return "unknown";
}

void ToolExecution::enter(CallState next) {
    state_ = next;
    trail_.push_back(next);
}

void ToolExecution::reject(std::string_view event) const {
    throw std::logic_error("tool execution: event " + std::string(event) + " is not accepted in state " +
                           std::string(to_string(state_)));
}

void ToolExecution::select_tool(std::string tool) {
    switch (state_) {
    case CallState::idle:
    case CallState::tool_selected:
    case CallState::succeeded:
    case CallState::failed:
    case CallState::cancelled:
        tool_ = std::move(tool);
        parameters_ = nullptr;
        error_.clear();
        enter(CallState::tool_selected);
        return;
    default: reject("select");
    }
}

void ToolExecution::set_parameters(boost::json::value parameters) {
    switch (state_) {
    case CallState::tool_selected:
    case CallState::parameters_set:
    case CallState::failed:
        parameters_ = std::move(parameters);
        error_.clear();
        enter(CallState::parameters_set);
        return;
    default: reject("set parameters");
    }
}

void ToolExecution::execute() {
    if (state_ != CallState::parameters_set) reject("execute");
    started_ = std::chrono::steady_clock::now();
    enter(CallState::executing);
}

void ToolExecution::succeed() {
    if (state_ != CallState::executing) reject("succeed");
    finished_ = std::chrono::steady_clock::now();
    enter(CallState::succeeded);
}

void ToolExecution::refuse_parameters(std::string error) {
    if (state_ != CallState::tool_selected) reject("refuse");
    error_ = std::move(error);
    enter(CallState::failed);
}

void ToolExecution::fail(std::string error) {
    if (state_ != CallState::executing) reject("fail");
    finished_ = std::chrono::steady_clock::now();
    error_ = std::move(error);
    enter(CallState::failed);
}

void ToolExecution::cancel() {
    if (state_ != CallState::executing) reject("cancel");
    finished_ = std::chrono::steady_clock::now();
    enter(CallState::cancelled);
}

void ToolExecution::reset() {
    tool_.clear();
    parameters_ = nullptr;
    error_.clear();
    enter(CallState::idle);
}

double ToolExecution::execution_milliseconds() const {
    if (started_ == std::chrono::steady_clock::time_point{}) return 0.0;
    auto end = state_ == CallState::executing ? std::chrono::steady_clock::now() : finished_;
    return std::chrono::duration<double, std::milli>(end - started_).count();
}

}  // namespace mcpkit::analyze
