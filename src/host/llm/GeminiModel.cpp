#include "host/llm/GeminiModel.hpp"

#include "host/llm/ScratchJson.hpp"
#include "host/llm/StreamingRequest.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

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
            if (message.content.empty() && message.tool_calls.empty()) append_part("model", {{"text", ""}});
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
    json::object body{{"contents", std::move(contents)},
                      {"generationConfig",
                       {{"temperature", settings_.temperature}, {"maxOutputTokens", request.max_output_tokens}}}};
    if (!request.system_prompt.empty())
        body["systemInstruction"] = {{"parts", json::array{json::object{{"text", request.system_prompt}}}}};
    if (with_tools && request.tools && !request.tools->empty()) {
        body["tools"] = json::array{json::object{{"functionDeclarations", declarations_of(*request.tools)}}};
        body["toolConfig"] = {{"functionCallingConfig", {{"mode", "AUTO"}}}};
    }
    return body;
}

boost::asio::awaitable<ModelReply> GeminiModel::generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                                         AnswerSink& sink) {
    mcp::HttpRequest post;
    post.method = "POST";
    post.url = settings_.base_url + "/v1beta/models/" + settings_.model +
               (settings_.stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
    post.headers = {{"Content-Type", "application/json"}, {"x-goog-api-key", settings_.api_key}};
    post.body = request_text(request);

    ModelReply reply;
    ReadText read_text(sink);
    ScratchJson scratch;
    auto on_event = [&](std::string_view data) {
        const json::value* chunk = scratch.parse(data);
        if (!chunk || !chunk->is_object()) throw ModelError("Gemini sent an event that is not JSON: " + std::string(data.substr(0, 200)), 0, true);
        const auto& object = chunk->get_object();
        if (auto* error = object.if_contains("error"))
            throw ModelError("Gemini failed mid-answer: " + json::serialize(*error), 0, true);
        if (auto* usage = object.if_contains("usageMetadata"); usage && usage->is_object())
            reply.usage = token_usage_from(usage->get_object(), "promptTokenCount", "candidatesTokenCount", "totalTokenCount");
        if (auto* feedback = object.if_contains("promptFeedback"); feedback && feedback->is_object())
            if (std::string blocked = json_fields::text(feedback->get_object(), "blockReason"); !blocked.empty())
                throw ModelError("Gemini blocked the prompt (" + blocked + ")", 400, false);
        auto* candidates = object.if_contains("candidates");
        if (!candidates || !candidates->is_array() || candidates->get_array().empty()) return;
        const auto& candidate_value = candidates->get_array().front();
        if (!candidate_value.is_object()) return;
        const auto& candidate = candidate_value.get_object();
        if (std::string reason = json_fields::text(candidate, "finishReason"); !reason.empty()) reply.finish_reason = reason;
        auto* content = candidate.if_contains("content");
        if (!content || !content->is_object()) return;
        auto* parts = content->get_object().if_contains("parts");
        if (!parts || !parts->is_array()) return;
        for (const auto& part_value : parts->get_array()) {
            if (!part_value.is_object()) continue;
            const auto& part = part_value.get_object();
            if (auto* thought = part.if_contains("thought"); thought && thought->is_bool() && thought->get_bool())
                continue;  // the model's reasoning summary, not its answer
            if (auto* text = part.if_contains("text"); text && text->is_string() && !text->get_string().empty()) {
                reply.text += text->get_string();
                read_text.add(text->get_string());
            }
            if (auto* function = part.if_contains("functionCall"); function && function->is_object()) {
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
    std::function<void(std::string_view)> handler = on_event;
    co_await stream_events(connections_, std::move(post), cancellation, "gemini", handler, read_text);
    if (reply.finish_reason == "MALFORMED_FUNCTION_CALL" && reply.tool_calls.empty())
        throw ModelError("Gemini produced a malformed function call", 0, true);
    co_return reply;
}

}  // namespace mcpkit::host
