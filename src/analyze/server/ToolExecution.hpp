#pragma once
// The seed's per-call state machine: idle → toolSelected → parametersSet → executing →
// succeeded | failed | cancelled. Each analysis call walks it; an event the current state does not
// accept is a programming error and throws.
//
//   idle          —select→     toolSelected
//   toolSelected  —set→        parametersSet   (select again: stays; reset: idle)
//   toolSelected  —refuse→     failed          (arguments that break the tool's schema)
//   parametersSet —execute→    executing       (set again: stays; reset: idle)
//   executing     —succeed→    succeeded;  —fail→ failed;  —cancel→ cancelled
//   succeeded, failed, cancelled —select→ toolSelected;  failed —set→ parametersSet
//   any           —reset→      idle

#include <boost/json/value.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::analyze {

enum class CallState { idle, tool_selected, parameters_set, executing, succeeded, failed, cancelled };
std::string_view to_string(CallState state);

class ToolExecution {
public:
    void select_tool(std::string tool);
    void set_parameters(boost::json::value parameters);
    /// The arguments were refused before they could be set: the call fails without executing.
    void refuse_parameters(std::string error);
    void execute();
    void succeed();
    void fail(std::string error);
    void cancel();
    void reset();

    CallState state() const { return state_; }
    const std::string& tool() const { return tool_; }
    const boost::json::value& parameters() const { return parameters_; }
    const std::string& error() const { return error_; }
    /// Every state entered, in order (the first is idle).
    const std::vector<CallState>& trail() const { return trail_; }
    /// Milliseconds spent in executing, measured with a monotonic clock.
    double execution_milliseconds() const;

private:
    void enter(CallState next);
    [[noreturn]] void reject(std::string_view event) const;

    CallState state_ = CallState::idle;
    std::string tool_;
    boost::json::value parameters_;
    std::string error_;
    std::vector<CallState> trail_{CallState::idle};
    std::chrono::steady_clock::time_point started_{};
    std::chrono::steady_clock::time_point finished_{};
};

}  // namespace mcpkit::analyze
