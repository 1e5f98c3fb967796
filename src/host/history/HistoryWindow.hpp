#pragma once
// The seed's context-window management (HistoryManagementOptions): token counts estimated at
// about four characters per token, the oldest messages left out until the rest fits, the newest
// few always kept, and the window made to start at a user message so that no tool result goes
// out without the call it answers (providers refuse that).

#include "host/history/ChatMessage.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace mcpkit::host {

struct HistoryWindowOptions {
    std::int64_t max_tokens = 32768;
    std::size_t retain_newest = 6;
};

std::int64_t estimate_tokens(std::string_view text);
std::int64_t estimate_tokens(const ChatMessage& message);

/// The window is the history from `omitted` on (the caller sends that span; nothing is copied).
struct HistoryWindow {
    std::size_t omitted = 0;
    std::int64_t estimated_tokens = 0;
};

HistoryWindow history_window(const std::vector<ChatMessage>& history, const HistoryWindowOptions& options);

}  // namespace mcpkit::host
