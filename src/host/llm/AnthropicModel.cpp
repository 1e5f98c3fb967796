#include "host/llm/AnthropicModel.hpp"

#include "host/llm/AnthropicAnswerReader.hpp"
#include "host/llm/ModelErrors.hpp"
#include "host/llm/ScratchJson.hpp"
#include "host/llm/StreamingRequest.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json/serialize.hpp>

#include <cctype>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

/// Anthropic requires an output limit; this is the one used when none is configured.
constexpr int default_max_tokens = 8192;

json::array tool_array(const std::vector<ToolDeclaration>& tools) {
    json::array array;
    for (const auto& tool : tools) {
        json::object schema = tool.input_schema;
        if (!schema.contains("type")) schema["type"] = "object";
        array.push_back({{"name", tool.name}, {"description", tool.description}, {"input_schema", std::move(schema)}});
    }
    return array;
}

json::object image_block(const MessageImage& image) {
    return {{"type", "image"}, {"source", {{"type", "base64"}, {"media_type", image.mime_type}, {"data", image.data}}}};
}

/// The messages in Anthropic's shape: consecutive tool results are the blocks of one user message,
/// right after the assistant message whose calls they answer. `images`: the model takes pictures.
json::array messages_of(std::span<const ChatMessage> history, bool images) {
    json::array messages;
    auto user_blocks = [&]() -> json::array& {
        if (messages.empty() || messages.back().as_object()["role"].as_string() != "user")
            messages.push_back({{"role", "user"}, {"content", json::array{}}});
        return messages.back().as_object()["content"].as_array();
    };
    for (const auto& message : history) {
        switch (message.role) {
        case Role::user: {
            std::string text = message.text_for_model();
            if (!images) for (const auto& image : message.images) text += "\n" + image_note(image);
            user_blocks().push_back({{"type", "text"}, {"text", text.empty() ? std::string("(empty message)") : text}});
            if (images)
                for (const auto& image : message.images) user_blocks().push_back(image_block(image));
            break;
        }
        case Role::assistant: {
            json::array content;
            bool said = message.content.find_first_not_of(" \t\r\n") != std::string::npos || !message.tool_calls.empty();
            if (!said) break;  // an answer that failed before anything was written
            if (auto* thinking = message.provider_data.if_contains("thinking"); thinking && thinking->is_array())
                for (const auto& block : thinking->get_array()) content.push_back(block);
            // Anthropic refuses text blocks that are empty or only white space (a model's "\n\n"
            // before its calls would make every later request fail).
            if (message.content.find_first_not_of(" \t\r\n") != std::string::npos)
                content.push_back({{"type", "text"}, {"text", message.content}});
            for (const auto& call : message.tool_calls)
                content.push_back({{"type", "tool_use"}, {"id", call.id}, {"name", call.name}, {"input", call.arguments}});
            messages.push_back({{"role", "assistant"}, {"content", std::move(content)}});
            break;
        }
        case Role::tool: {
            json::object result{{"type", "tool_result"}, {"tool_use_id", message.tool_call_id}, {"content", message.content}};
            // A tool_result holds pictures beside its text.
            if (auto pictures = images_for_model(message); !pictures.empty()) {
                if (images) {
                    json::array content{json::object{{"type", "text"}, {"text", message.content.empty() ? "(no text)" : message.content}}};
                    for (const auto& image : pictures) content.push_back(image_block(image));
                    result["content"] = std::move(content);
                } else {
                    std::string text = message.content;
                    for (const auto& image : pictures) text += "\n" + image_note(image);
                    result["content"] = text;
                }
            }
            if (message.is_error) result["is_error"] = true;
            user_blocks().push_back(std::move(result));
            break;
        }
        }
    }
    return messages;
}

}  // namespace

AnthropicModel::AnthropicModel(ModelSettings settings) : settings_(std::move(settings)), connections_(provider_http_options(settings_)) {
    while (!settings_.base_url.empty() && settings_.base_url.back() == '/') settings_.base_url.pop_back();
    // Both https://api.anthropic.com and …/v1 are taken as the base.
    if (settings_.base_url.ends_with("/v1")) settings_.base_url.resize(settings_.base_url.size() - 3);
}

std::vector<std::pair<std::string, std::string>> AnthropicModel::headers() const {
    return {{"Content-Type", "application/json"}, {"x-api-key", settings_.api_key}, {"anthropic-version", "2023-06-01"}};
}

std::string AnthropicModel::request_text(const ModelRequest& request) {
    int limit = request.max_output_tokens.value_or(settings_.max_output_tokens.value_or(default_max_tokens));
    json::object body{{"model", request.model.empty() ? settings_.model : request.model},
                      {"messages", messages_of(request.history, settings_.images)},
                      {"stream", settings_.stream}};
    if (!request.system_prompt.empty()) body["system"] = request.system_prompt;
    if (settings_.temperature) body["temperature"] = *settings_.temperature;
    if (settings_.thinking_budget && *settings_.thinking_budget > 0) {
        // At least the documented minimum of 1024, and below max_tokens: the answer needs room
        // after the thinking. 0 means no thinking (as for Gemini's thinkingBudget).
        int budget = std::max(1024, *settings_.thinking_budget);
        limit = std::max(limit, budget + 1024);
        body["thinking"] = {{"type", "enabled"}, {"budget_tokens", budget}};
    }
    body["max_tokens"] = limit;
    std::string text = json::serialize(body);
    if (!request.tools || request.tools->empty()) return text;
    if (request.tools != cached_tools_) {
        cached_tools_ = request.tools;
        cached_tools_text_ = ",\"tools\":" + json::serialize(tool_array(*request.tools)) + ",\"tool_choice\":{\"type\":\"auto\"}";
    }
    text.insert(text.size() - 1, cached_tools_text_);  // before the closing brace
    return text;
}

boost::asio::awaitable<ModelReply> AnthropicModel::generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                                            AnswerSink& sink) {
    mcp::HttpRequest post;
    post.method = "POST";
    post.url = settings_.base_url + "/v1/messages";
    for (auto& header : headers()) post.headers.push_back(std::move(header));
    post.headers.emplace_back("Accept", "text/event-stream");
    post.body = request_text(request);

    ModelReply reply;
    StreamedAnswer answer(sink, reply);
    AnthropicAnswerReader reader(reply, answer);
    ScratchJson scratch;
    EventHandler on_event = json_object_events(scratch, "anthropic", [&](const json::object& event) { reader.read(event); });
    co_await stream_events(connections_, std::move(post), cancellation, "anthropic", on_event, answer);
    reader.finish();
    if (!answer.heard) throw empty_answer_error("anthropic");
    co_return reply;
}

boost::asio::awaitable<std::vector<ModelChoice>> AnthropicModel::list_models(mcp::CancellationToken cancellation) {
    std::vector<ModelChoice> models;
    std::string after;
    // Paged; a list that keeps handing out pages stops at 20 of them.
    for (int page = 0; page < 20; ++page) {
        mcp::HttpRequest get;
        get.method = "GET";
        get.url = settings_.base_url + "/v1/models?limit=1000";
        if (!after.empty()) get.url += "&after_id=" + after;
        for (auto& header : headers())
            if (header.first != "Content-Type") get.headers.push_back(std::move(header));
        json::value list = co_await fetch_json(connections_, std::move(get), cancellation, "anthropic");
        if (!list.is_object()) break;
        const auto& object = list.get_object();
        for (const auto& item : json_fields::array(object, "data"))
            if (item.is_object())
                if (std::string id = json_fields::text(item.get_object(), "id"); !id.empty())
                    models.push_back({id, json_fields::text(item.get_object(), "display_name")});
        auto* more = object.if_contains("has_more");
        after = json_fields::text(object, "last_id");
        // The id goes in a query: only characters that need no escaping are taken.
        bool plain = more && more->is_bool() && more->get_bool() && !after.empty();
        for (char c : after)
            plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_.").find(c) != std::string_view::npos);
        if (!plain) break;
    }
    co_return models;
}

}  // namespace mcpkit::host
