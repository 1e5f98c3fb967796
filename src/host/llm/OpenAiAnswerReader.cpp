#include "host/llm/OpenAiAnswerReader.hpp"

#include "host/llm/AnswerEndings.hpp"
#include "host/llm/ModelErrors.hpp"
#include "host/llm/SurrogateHalves.hpp"

#include <mcp/JsonFields.hpp>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

std::string_view string_at(const json::object& object, std::string_view key) {
    auto* value = object.if_contains(key);
    return value && value->is_string() ? std::string_view(value->get_string()) : std::string_view();
}

}  // namespace

void OpenAiAnswerReader::read(const json::object& chunk) {
    if (auto* error = chunk.if_contains("error"); error && !error->is_null()) throw error_event("openai", *error);
    if (auto* usage = chunk.if_contains("usage"); usage && usage->is_object())
        reply_.usage = token_usage_from(usage->get_object(), "prompt_tokens", "completion_tokens", "total_tokens");
    // Groq puts the usage of a stream under x_groq on its last chunk.
    if (auto* groq = chunk.if_contains("x_groq"); groq && groq->is_object())
        if (auto* usage = groq->get_object().if_contains("usage"); usage && usage->is_object())
            reply_.usage = token_usage_from(usage->get_object(), "prompt_tokens", "completion_tokens", "total_tokens");
    // vLLM ends with choices: null, OpenAI's usage chunk has choices: [].
    auto* choices = chunk.if_contains("choices");
    if (!choices || !choices->is_array()) return;
    for (const auto& choice : choices->get_array())
        if (choice.is_object()) read_choice(choice.get_object());
}

void OpenAiAnswerReader::read_choice(const json::object& choice) {
    if (std::string_view reason = string_at(choice, "finish_reason"); !reason.empty()) {
        reply_.finish_reason = std::string(reason);
        answer_.heard = true;
    }
    auto* delta_value = choice.if_contains("delta");
    if (!delta_value) delta_value = choice.if_contains("message");  // a non-streamed answer
    if (!delta_value || !delta_value->is_object()) return;
    const auto& delta = delta_value->get_object();
    for (std::string_view field : {"reasoning_content", "reasoning"}) {
        if (std::string_view piece = string_at(delta, field); !piece.empty()) {
            answer_.add_reasoning(piece);
            if (reasoning_field_.empty()) reasoning_field_ = std::string(field);
            break;  // a server that fills both means the same text
        }
    }
    if (std::string_view piece = string_at(delta, "content"); !piece.empty()) answer_.add_text(piece);
    if (std::string_view piece = string_at(delta, "refusal"); !piece.empty()) {
        refusal_ += piece;
        answer_.heard = true;
    }
    if (auto* tool_calls = delta.if_contains("tool_calls"); tool_calls && tool_calls->is_array()) {
        answer_.heard = true;
        for (const auto& item : tool_calls->get_array())
            if (item.is_object()) calls_.add(item.get_object());
    }
}

void OpenAiAnswerReader::finish() {
    reply_.tool_calls = calls_.finish();
    // DeepSeek's thinking mode wants its reasoning back with the calls it led to.
    if (reasoning_field_ == "reasoning_content" && !reply_.reasoning.empty())
        reply_.provider_data["reasoning_content"] = true;
    const std::string& reason = reply_.finish_reason;
    join_surrogate_halves(refusal_);
    if (!refusal_.empty()) reply_.ending = answer_endings::refused(refusal_);
    else if (reason == "length") reply_.ending = answer_endings::output_limit();
    else if (reason == "content_filter") reply_.ending = answer_endings::content_filter();
    else if (reply_.text.empty() && reply_.tool_calls.empty() && answer_.heard)
        reply_.ending = answer_endings::empty();
}

}  // namespace mcpkit::host
