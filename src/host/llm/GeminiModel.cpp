#include "host/llm/GeminiModel.hpp"

#include "host/llm/AnswerEndings.hpp"
#include "host/llm/ModelErrors.hpp"
#include "host/llm/ScratchJson.hpp"
#include "host/llm/StreamingRequest.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cctype>
#include <set>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

// The keywords Gemini documents for JSON Schema in function declarations.
const std::set<std::string, std::less<>>& gemini_keywords() {
    static const std::set<std::string, std::less<>> keywords{
        "$id",      "$defs",      "$ref",  "$anchor", "type",       "format",     "title",
        "description", "enum",    "items", "prefixItems", "minItems", "maxItems", "minimum",
        "maximum",  "anyOf",      "oneOf", "properties", "additionalProperties", "required",
        "propertyOrdering", "default", "minLength", "maxLength", "pattern", "nullable"};
    return keywords;
}

json::value cleaned(const json::value& value, bool schema_position);

json::object cleaned_schema(const json::object& schema) {
    json::object out;
    for (const auto& [key, value] : schema) {
        if (!gemini_keywords().contains(key)) continue;
        if (key == "properties" || key == "$defs") {
            // A map from names to schemas: the names are not keywords.
            json::object map;
            if (value.is_object())
                for (const auto& [name, sub] : value.get_object()) map[name] = cleaned(sub, true);
            out[key] = std::move(map);
        } else if (key == "items" || key == "additionalProperties") {
            out[key] = cleaned(value, true);
        } else if (key == "anyOf" || key == "oneOf" || key == "prefixItems") {
            json::array list;
            if (value.is_array())
                for (const auto& sub : value.get_array()) list.push_back(cleaned(sub, true));
            out[key] = std::move(list);
        } else {
            out[key] = value;
        }
    }
    return out;
}

json::value cleaned(const json::value& value, bool schema_position) {
    if (schema_position && value.is_object()) return cleaned_schema(value.get_object());
    return value;
}


}  // namespace

json::object gemini_parameters_schema(const json::object& input_schema) { return cleaned_schema(input_schema); }

GeminiModel::GeminiModel(ModelSettings settings) : settings_(std::move(settings)), connections_(provider_http_options(settings_)) {
    while (!settings_.base_url.empty() && settings_.base_url.back() == '/') settings_.base_url.pop_back();
}

namespace {

json::array declarations_of(const std::vector<ToolDeclaration>& tools) {
    json::array declarations;
    for (const auto& tool : tools) {
        json::object declaration{{"name", tool.name}, {"description", tool.description}};
        // A tool without parameters declares none (an empty object schema is refused by some models).
        auto* properties = tool.input_schema.if_contains("properties");
        if (properties && properties->is_object() && !properties->get_object().empty())
            declaration["parametersJsonSchema"] = gemini_parameters_schema(tool.input_schema);
        declarations.push_back(std::move(declaration));
    }
    return declarations;
}

}  // namespace

std::string GeminiModel::request_text(const ModelRequest& request) {
    std::string text = json::serialize(request_body(request, false));
    if (!request.tools || request.tools->empty()) return text;
    if (request.tools != cached_tools_) {
        cached_tools_ = request.tools;
        cached_tools_text_ = ",\"tools\":[{\"functionDeclarations\":" + json::serialize(declarations_of(*request.tools)) +
                             "}],\"toolConfig\":{\"functionCallingConfig\":{\"mode\":\"AUTO\"}}";
    }
    text.insert(text.size() - 1, cached_tools_text_);  // before the closing brace
    return text;
}

json::object GeminiModel::request_body(const ModelRequest& request, bool with_tools) const {
    json::array contents;
    // Consecutive tool results form one user turn, answering the model turn before them.
    auto append_part = [&](std::string_view role, json::object part) {
        if (!contents.empty()) {
            auto& last = contents.back().as_object();
            if (last["role"].as_string() == role) {
                last["parts"].as_array().push_back(std::move(part));
                return;
            }
        }
        contents.push_back({{"role", role}, {"parts", json::array{std::move(part)}}});
    };
    for (const auto& message : request.history) {
        // An answer that failed before anything was written is nothing the model said.
        if (message.role == Role::assistant && message.content.empty() && message.tool_calls.empty()) continue;
        switch (message.role) {
        case Role::user: append_part("user", {{"text", message.text_for_model()}}); break;
        case Role::assistant:
            if (!message.content.empty()) append_part("model", {{"text", message.content}});
            for (const auto& call : message.tool_calls) {
                json::object function{{"name", call.name}, {"args", call.arguments}};
                // Gemini's own ids are echoed; ids we made up for it are not sent.
                if (call.provider_data.contains("id")) function["id"] = call.provider_data.at("id");
                json::object part{{"functionCall", std::move(function)}};
                if (auto* signature = call.provider_data.if_contains("thoughtSignature"))
                    part["thoughtSignature"] = *signature;
                append_part("model", std::move(part));
            }
            break;
        case Role::tool: {
            json::object function{{"name", message.tool_name},
                                  {"response", message.is_error ? json::object{{"error", message.content}}
                                                                : json::object{{"result", message.content}}}};
            for (const auto& earlier : request.history)
                for (const auto& call : earlier.tool_calls)
                    if (call.id == message.tool_call_id && call.provider_data.contains("id"))
                        function["id"] = call.provider_data.at("id");
            append_part("user", {{"functionResponse", std::move(function)}});
            break;
        }
        }
    }
    // Only what was set: a small output limit leaves a thinking model with its budget spent on
    // thinking and nothing written (finishReason MAX_TOKENS, no parts).
    json::object generation;
    if (settings_.temperature) generation["temperature"] = *settings_.temperature;
    if (auto limit = request.max_output_tokens ? request.max_output_tokens : settings_.max_output_tokens)
        generation["maxOutputTokens"] = *limit;
    if (settings_.thinking_budget)
        generation["thinkingConfig"] = {{"thinkingBudget", *settings_.thinking_budget}, {"includeThoughts", true}};
    json::object body{{"contents", std::move(contents)}};
    if (!generation.empty()) body["generationConfig"] = std::move(generation);
    if (!request.system_prompt.empty())
        body["systemInstruction"] = {{"parts", json::array{json::object{{"text", request.system_prompt}}}}};
    if (with_tools && request.tools && !request.tools->empty()) {
        body["tools"] = json::array{json::object{{"functionDeclarations", declarations_of(*request.tools)}}};
        body["toolConfig"] = {{"functionCallingConfig", {{"mode", "AUTO"}}}};
    }
    return body;
}

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

boost::asio::awaitable<ModelReply> GeminiModel::generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                                         AnswerSink& sink) {
    const std::string& model = request.model.empty() ? settings_.model : request.model;
    mcp::HttpRequest post;
    post.method = "POST";
    post.url = settings_.base_url + "/v1beta/models/" + model +
               (settings_.stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
    post.headers = {{"Content-Type", "application/json"}, {"x-goog-api-key", settings_.api_key}};
    post.body = request_text(request);

    ModelReply reply;
    StreamedAnswer answer(sink, reply);
    ScratchJson scratch;
    EventHandler on_event = [&](std::string_view, std::string_view data) {
        const json::value* chunk = scratch.parse(data);
        if (!chunk || !chunk->is_object()) throw unreadable_event_error("gemini", data);
        const auto& object = chunk->get_object();
        if (auto* error = object.if_contains("error")) throw error_event("gemini", *error);
        if (auto* usage = object.if_contains("usageMetadata"); usage && usage->is_object())
            reply.usage = token_usage_from(usage->get_object(), "promptTokenCount", "candidatesTokenCount", "totalTokenCount");
        if (auto* feedback = object.if_contains("promptFeedback"); feedback && feedback->is_object())
            if (std::string blocked = json_fields::text(feedback->get_object(), "blockReason"); !blocked.empty())
                throw ModelError("Gemini refused the message (" + blocked + ").",
                                 "gemini blocked the prompt: " + json::serialize(*feedback), 400, false);
        auto* candidates = object.if_contains("candidates");
        if (!candidates || !candidates->is_array() || candidates->get_array().empty()) return;
        const auto& candidate_value = candidates->get_array().front();
        if (!candidate_value.is_object()) return;
        const auto& candidate = candidate_value.get_object();
        if (std::string reason = json_fields::text(candidate, "finishReason"); !reason.empty()) {
            reply.finish_reason = reason;
            answer.heard = true;
        }
        auto* content = candidate.if_contains("content");
        if (!content || !content->is_object()) return;
        auto* parts = content->get_object().if_contains("parts");
        if (!parts || !parts->is_array()) return;
        for (const auto& part_value : parts->get_array()) {
            if (!part_value.is_object()) continue;
            const auto& part = part_value.get_object();
            auto* text = part.if_contains("text");
            bool has_text = text && text->is_string() && !text->get_string().empty();
            if (auto* thought = part.if_contains("thought"); thought && thought->is_bool() && thought->get_bool()) {
                if (has_text) answer.add_reasoning(text->get_string());  // a summary of its thinking
                continue;
            }
            if (has_text) answer.add_text(text->get_string());
            if (auto* function = part.if_contains("functionCall"); function && function->is_object()) {
                answer.heard = true;
                const auto& call_object = function->get_object();
                ToolCall call;
                call.name = json_fields::text(call_object, "name");
                std::string id = json_fields::text(call_object, "id");
                // Gemini usually sends no id: one made up, unique across the session's turns.
                call.id = id.empty() ? new_id("call") : id;
                if (!id.empty()) call.provider_data["id"] = id;
                if (auto* args = call_object.if_contains("args"); args && args->is_object()) call.arguments = args->get_object();
                else if (args && !args->is_null()) call.arguments_error = "the arguments must be an object";
                if (auto* signature = part.if_contains("thoughtSignature")) call.provider_data["thoughtSignature"] = *signature;
                reply.tool_calls.push_back(std::move(call));
            }
        }
    };
    co_await stream_events(connections_, std::move(post), cancellation, "gemini", on_event, answer);
    if (reply.finish_reason == "MALFORMED_FUNCTION_CALL" && reply.tool_calls.empty())
        throw ModelError("Gemini wrote a tool call it could not finish.", "gemini: finishReason MALFORMED_FUNCTION_CALL", 0, true);
    if (!answer.heard) throw empty_answer_error("gemini");
    reply.ending = ending_for(reply.finish_reason, reply);
    if (reply.ending.empty() && reply.text.empty() && reply.tool_calls.empty()) reply.ending = answer_endings::empty();
    co_return reply;
}

boost::asio::awaitable<std::vector<ModelChoice>> GeminiModel::list_models(mcp::CancellationToken cancellation) {
    std::vector<ModelChoice> models;
    std::string page_token;
    // Paged; a list that keeps handing out pages stops at 20 of them.
    for (int page = 0; page < 20; ++page) {
        mcp::HttpRequest get;
        get.method = "GET";
        get.url = settings_.base_url + "/v1beta/models?pageSize=1000";
        if (!page_token.empty()) get.url += "&pageToken=" + page_token;
        get.headers = {{"x-goog-api-key", settings_.api_key}};
        ModelReply unused;
        AnswerSink quiet;
        StreamedAnswer answer(quiet, unused);
        page_token.clear();
        EventHandler on_body = [&](std::string_view, std::string_view data) {
            boost::system::error_code ec;
            json::value list = json::parse(data, ec);
            if (ec || !list.is_object()) return;
            page_token = json_fields::text(list.get_object(), "nextPageToken");
            auto* items = list.get_object().if_contains("models");
            if (!items || !items->is_array()) return;
            for (const auto& item : items->get_array()) {
                if (!item.is_object()) continue;
                const auto& model = item.get_object();
                // Only the models that answer chats (not embeddings, not image generators).
                bool chats = false;
                if (auto* methods = model.if_contains("supportedGenerationMethods"); methods && methods->is_array())
                    for (const auto& method : methods->get_array())
                        chats = chats || (method.is_string() && method.get_string() == "generateContent");
                std::string name = json_fields::text(model, "name");
                if (!chats || name.empty()) continue;
                if (name.starts_with("models/")) name.erase(0, 7);
                models.push_back({name, json_fields::text(model, "displayName")});
            }
        };
        co_await stream_events(connections_, std::move(get), cancellation, "gemini", on_body, answer);
        if (page_token.empty()) break;
        // The token goes in a query: only characters that need no escaping are taken.
        for (char c : page_token)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' && c != '~') co_return models;
    }
    co_return models;
}

}  // namespace mcpkit::host
