#pragma once
// What the chat says when an answer ends before the model meant it to, one sentence per cause and
// the same for every provider: each provider's stop reason (OpenAI's finish_reason, Gemini's
// finishReason, Anthropic's stop_reason) maps to one of these, and what arrived before it is kept.

#include <string>
#include <string_view>

namespace mcpkit::host::answer_endings {

inline std::string output_limit() { return "The model stopped: output limit reached."; }
inline std::string thinking_used_limit() {
    return "The model stopped: its thinking used the whole output limit before it wrote an answer. Raise --max-tokens, "
           "or lower --thinking-budget.";
}
inline std::string content_filter() { return "The provider's content filter ended the answer."; }
inline std::string safety_filter(std::string_view reason) {
    return "The provider's safety filter ended the answer (" + std::string(reason) + ").";
}
inline std::string recitation() {
    return "The provider ended the answer because it was repeating a source word for word (RECITATION).";
}
inline std::string refused(std::string_view said) {
    return said.empty() ? std::string("The model refused to answer.") : "The model refused: " + std::string(said);
}
inline std::string paused() {
    return "The provider paused this long answer (pause_turn). Send a message such as \"continue\" to let it go on.";
}
inline std::string empty() { return "The model's answer was empty."; }
inline std::string other(std::string_view reason) {
    return "The model stopped early (" + std::string(reason) + ").";
}

}  // namespace mcpkit::host::answer_endings
