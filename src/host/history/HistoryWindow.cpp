#include "host/history/HistoryWindow.hpp"

#include <boost/json/serialize.hpp>

namespace mcpkit::host {

std::int64_t estimate_tokens(std::string_view text) { return static_cast<std::int64_t>(text.size() + 3) / 4; }

std::int64_t estimate_tokens(const ChatMessage& message) {
    std::int64_t tokens = 4 + estimate_tokens(message.content) + estimate_tokens(message.context);  // a few for the role and framing
    for (const auto& call : message.tool_calls)
        tokens += estimate_tokens(call.name) + estimate_tokens(boost::json::serialize(call.arguments));
    return tokens;
}

HistoryWindow history_window(const std::vector<ChatMessage>& history, const HistoryWindowOptions& options) {
    std::vector<std::int64_t> tokens;
    tokens.reserve(history.size());
    std::int64_t total = 0;
    for (const auto& message : history) {
        tokens.push_back(estimate_tokens(message));
        total += tokens.back();
    }
    std::size_t first = 0;
    std::size_t keep_from = history.size() > options.retain_newest ? history.size() - options.retain_newest : 0;
    while (total > options.max_tokens && first < keep_from) total -= tokens[first++];
    // Start at a user message: a window opening on a tool result or on an assistant's calls
    // would separate them from their other half.
    while (first > 0 && first < history.size() && history[first].role != Role::user) total -= tokens[first++];
    if (first >= history.size() && !history.empty()) {
        // Nothing fits: send from the last user message on, whatever its size.
        first = history.size() - 1;
        while (first > 0 && history[first].role != Role::user) --first;
        total = 0;
        for (std::size_t i = first; i < history.size(); ++i) total += tokens[i];
    }
    HistoryWindow window;
    window.omitted = first;
    window.estimated_tokens = total;
    return window;
}

}  // namespace mcpkit::host
