#include "host/llm/GeminiModel.hpp"

#include "host/llm/GeminiAnswerReader.hpp"
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
        case Role::user: {
            std::string text = message.text_for_model();
            if (!settings_.images) for (const auto& image : message.images) text += "\n" + image_note(image);
            append_part("user", {{"text", text}});
            if (settings_.images)
                for (const auto& image : message.images)
                    append_part("user", {{"inlineData", {{"mimeType", image.mime_type}, {"data", image.data}}}});
            break;
        }
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
            // A result's pictures go beside its response, in the same user turn.
            for (const auto& image : images_for_model(message)) {
                if (settings_.images) append_part("user", {{"inlineData", {{"mimeType", image.mime_type}, {"data", image.data}}}});
                else append_part("user", {{"text", image_note(image)}});
            }
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
    GeminiAnswerReader reader(reply, answer);
    ScratchJson scratch;
    EventHandler on_event = json_object_events(scratch, "gemini", [&](const json::object& chunk) { reader.read(chunk); });
    co_await stream_events(connections_, std::move(post), cancellation, "gemini", on_event, answer);
    reader.finish();
    if (!answer.heard) throw empty_answer_error("gemini");
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
        json::value list = co_await fetch_json(connections_, std::move(get), cancellation, "gemini");
        if (!list.is_object()) break;
        page_token = json_fields::text(list.get_object(), "nextPageToken");
        for (const auto& item : json_fields::array(list.get_object(), "models")) {
            if (!item.is_object()) continue;
            const auto& entry = item.get_object();
            // Only the models that answer chats (not embeddings, not image generators).
            bool chats = false;
            for (const auto& method : json_fields::array(entry, "supportedGenerationMethods"))
                chats = chats || (method.is_string() && method.get_string() == "generateContent");
            std::string name = json_fields::text(entry, "name");
            if (!chats || name.empty()) continue;
            if (name.starts_with("models/")) name.erase(0, 7);
            models.push_back({name, json_fields::text(entry, "displayName")});
        }
        // The token goes in a query: only characters that need no escaping are taken.
        bool plain = !page_token.empty();
        for (char c : page_token)
            plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_.~").find(c) != std::string_view::npos);
        if (!plain) break;
    }
    co_return models;
}

}  // namespace mcpkit::host
