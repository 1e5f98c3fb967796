#pragma once
// Reads one OpenAI-style chat completion, streamed chunk by chunk or whole, into a ModelReply,
// with what each backend adds or moves (shared/reference/llm-and-hosts.md §2, docs/host.md):
// - text in `content`; reasoning in `reasoning_content` (DeepSeek, vLLM, llama.cpp) or
//   `reasoning` (OpenRouter, Ollama), kept apart from the answer;
// - `refusal` with `content: null` (OpenAI): the answer ends as a refusal, in its own words;
// - `finish_reason` "length" and "content_filter" (Azure) end the answer with a stated reason;
// - usage in `usage`, or in `x_groq.usage` (Groq);
// - tool calls by ToolCallAccumulator, with Gemini's `extra_content` kept for the way back.

#include "host/llm/StreamingRequest.hpp"
#include "host/llm/ToolCallAccumulator.hpp"

#include <boost/json/object.hpp>

namespace mcpkit::host {

class OpenAiAnswerReader {
public:
    OpenAiAnswerReader(ModelReply& reply, StreamedAnswer& answer) : reply_(reply), answer_(answer) {}
    /// One chunk (or the whole chat.completion). Throws ModelError for an error chunk.
    void read(const boost::json::object& chunk);
    /// The calls assembled and the ending worked out, once the stream is over.
    void finish();

private:
    void read_choice(const boost::json::object& choice);
    ModelReply& reply_;
    StreamedAnswer& answer_;
    ToolCallAccumulator calls_;
    std::string refusal_;
    std::string reasoning_field_;
};

}  // namespace mcpkit::host
