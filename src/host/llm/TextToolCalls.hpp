#pragma once
// The seed's tool-call format for models without native tool calling: the tools are described in
// the system prompt and the model answers a fenced block
//   ```json
//   {"tool": "server__name", "arguments": {…}}
//   ```
// This wraps any LanguageModel: it rewrites the history into plain text turns and reads the
// blocks back out of the answer as tool calls.

#include "host/llm/LanguageModel.hpp"

#include <memory>

namespace mcpkit::host {

/// The fenced tool calls in `text`, removed from it. A block that is not a call stays as text.
std::vector<ToolCall> extract_text_tool_calls(std::string& text);

/// The system prompt section that lists the tools and the format.
std::string text_tool_prompt(const std::vector<ToolDeclaration>& tools);

std::unique_ptr<LanguageModel> with_text_tool_calls(std::unique_ptr<LanguageModel> model);

}  // namespace mcpkit::host
