#include "host/llm/GeminiAnswerReader.hpp"

#include "host/llm/AnswerEndings.hpp"
#include "host/llm/ModelErrors.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

/// The stated reason for an answer Gemini ended early, or empty for one that ended well.
std::string ending_for(std::string_view reason, const ModelReply& reply) {
    if (reason.empty() || reason == "STOP" || reason == "FINISH_REASON_UNSPECIFIED") return {};
    if (reason == "MAX_TOKENS")
        return reply.text.empty() && reply.tool_calls.empty() ? answer_endings::thinking_used_limit()
                                                              : answer_endings::output_limit();
    if (reason == "SAFETY" || reason == "PROHIBITED_CONTENT" || reason == "BLOCKLIST" || reason == "SPII" ||
        reason == "IMAGE_SAFETY")
        return answer_endings::safety_filter(reason);
    if (reason == "RECITATION") return answer_endings::recitation();
    return answer_endings::other(reason);
}

}  // namespace

void GeminiAnswerReader::read(const json::object& chunk) {
    if (auto* error = chunk.if_contains("error")) throw error_event("gemini", *error);
    if (auto* usage = chunk.if_contains("usageMetadata"); usage && usage->is_object())
        reply_.usage = token_usage_from(usage->get_object(), "promptTokenCount", "candidatesTokenCount", "totalTokenCount");
    if (auto* feedback = chunk.if_contains("promptFeedback"); feedback && feedback->is_object())
        if (std::string blocked = json_fields::text(feedback->get_object(), "blockReason"); !blocked.empty())
            throw ModelError("Gemini refused the message (" + blocked + ").",
                             "gemini blocked the prompt: " + json::serialize(*feedback), 400, false);
    auto* candidates = chunk.if_contains("candidates");
    if (!candidates || !candidates->is_array() || candidates->get_array().empty()) return;
    const auto& candidate_value = candidates->get_array().front();
    if (!candidate_value.is_object()) return;
    const auto& candidate = candidate_value.get_object();
    if (std::string reason = json_fields::text(candidate, "finishReason"); !reason.empty()) {
        reply_.finish_reason = reason;
        answer_.heard = true;
    }
    auto* content = candidate.if_contains("content");
    if (!content || !content->is_object()) return;
    auto* parts = content->get_object().if_contains("parts");
    if (!parts || !parts->is_array()) return;
    for (const auto& part : parts->get_array())
        if (part.is_object()) read_part(part.get_object());
}

void GeminiAnswerReader::read_part(const json::object& part) {
    auto* text = part.if_contains("text");
    bool has_text = text && text->is_string() && !text->get_string().empty();
    if (auto* thought = part.if_contains("thought"); thought && thought->is_bool() && thought->get_bool()) {
        if (has_text) answer_.add_reasoning(text->get_string());  // a summary of its thinking
        return;
    }
    if (has_text) answer_.add_text(text->get_string());
    auto* function = part.if_contains("functionCall");
    if (!function || !function->is_object()) return;
    answer_.heard = true;
    const auto& call_object = function->get_object();
    ToolCall call;
    call.name = json_fields::text(call_object, "name");
    std::string id = json_fields::text(call_object, "id");
    // Gemini usually sends no id: one made up, unique across the session's turns.
    call.id = id.empty() ? new_id("call") : id;
    if (!id.empty()) call.provider_data["id"] = id;
    // Assigned, so copied out of the event's scratch memory.
    if (auto* args = call_object.if_contains("args"); args && args->is_object()) call.arguments = args->get_object();
    else if (args && !args->is_null()) call.arguments_error = "the arguments must be an object";
    if (auto* signature = part.if_contains("thoughtSignature")) call.provider_data["thoughtSignature"] = *signature;
    if (reply_.tool_calls.size() >= max_tool_calls_per_answer) throw too_many_tool_calls_error("gemini");
    reply_.tool_calls.push_back(std::move(call));
}

void GeminiAnswerReader::finish() {
    if (reply_.finish_reason == "MALFORMED_FUNCTION_CALL" && reply_.tool_calls.empty())
        throw ModelError("Gemini wrote a tool call it could not finish.", "gemini: finishReason MALFORMED_FUNCTION_CALL", 0,
                         true);
    reply_.ending = ending_for(reply_.finish_reason, reply_);
    if (reply_.ending.empty() && reply_.text.empty() && reply_.tool_calls.empty() && answer_.heard)
        reply_.ending = answer_endings::empty();
}

}  // namespace mcpkit::host
