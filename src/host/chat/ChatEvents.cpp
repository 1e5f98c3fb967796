#include "host/chat/ChatEvents.hpp"

namespace mcpkit::host {

std::string_view turn_state_name(TurnState state) {
    switch (state) {
    case TurnState::started: return "started";
    case TurnState::finished: return "finished";
    case TurnState::stopped: return "stopped";
    case TurnState::failed: return "failed";
    }
    return "failed";
}

const std::string& question_id(const Question& question) {
    return std::visit(
        [](const auto& asked) -> const std::string& {
            if constexpr (std::is_same_v<std::decay_t<decltype(asked)>, ApprovalQuestion>) return asked.call_id;
            else return asked.request_id;
        },
        question);
}

}  // namespace mcpkit::host
