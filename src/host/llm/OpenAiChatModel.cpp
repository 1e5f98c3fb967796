#include "host/llm/OpenAiChatModel.hpp"

#include "host/llm/StreamingRequest.hpp"
#include "host/llm/ToolCallAccumulator.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;

OpenAiChatModel::OpenAiChatModel(ModelSettings settings) : settings_(std::move(settings)) {
    while (!settings_.base_url.empty() && settings_.base_url.back() == '/') settings_.base_url.pop_back();
}

namespace {

json::array tool_array(const std::vector<ToolDeclaration>& tools) {
    json::array array;
    for (const auto& tool : tools)
        array.push_back({{"type", "function"},
                         {"function", {{"name", tool.name}, {"description", tool.description}, {"parameters", tool.input_schema}}}});
    return array;
}

}  // namespace

std::string OpenAiChatModel::request_text(const ModelRequest& request) {
    std::string text = json::serialize(request_body(request, false));
    if (!request.tools || request.tools->empty()) return text;
    if (request.tools != cached_tools_) {
        cached_tools_ = request.tools;
        cached_tools_text_ = ",\"tools\":" + json::serialize(tool_array(*request.tools)) + ",\"tool_choice\":\"auto\"";
    }
    text.insert(text.size() - 1, cached_tools_text_);  // before the closing brace
    return text;
}

json::object OpenAiChatModel::request_body(const ModelRequest& request, bool with_tools) const {
    json::array messages;
    if (!request.system_prompt.empty()) messages.push_back({{"role", "system"}, {"content", request.system_prompt}});
    for (const auto& message : request.history) {
        switch (message.role) {
        case Role::user: messages.push_back({{"role", "user"}, {"content", message.content}}); break;
        case Role::assistant: {
            json::object item{{"role", "assistant"}};
            item["content"] = message.content.empty() && !message.tool_calls.empty() ? json::value(nullptr)
                                                                                      : json::value(message.content);
            if (!message.tool_calls.empty()) {
                json::array calls;
                for (const auto& call : message.tool_calls)
                    calls.push_back({{"id", call.id},
                                     {"type", "function"},
                                     {"function", {{"name", call.name}, {"arguments", json::serialize(call.arguments)}}}});
                item["tool_calls"] = std::move(calls);
            }
            messages.push_back(std::move(item));
            break;
        }
        case Role::tool:
            messages.push_back({{"role", "tool"}, {"tool_call_id", message.tool_call_id}, {"content", message.content}});
            break;
        }
    }
    json::object body{{"model", settings_.model},
                      {"messages", std::move(messages)},
                      {"stream", true},
                      {"stream_options", {{"include_usage", true}}},
                      {"temperature", settings_.temperature},
                      {"max_tokens", request.max_output_tokens}};
    if (with_tools && request.tools && !request.tools->empty()) {
        body["tools"] = tool_array(*request.tools);
        body["tool_choice"] = "auto";
    }
    return body;
}

boost::asio::awaitable<ModelReply> OpenAiChatModel::generate(const ModelRequest& request, mcp::HttpClient& http,
                                                            std::function<void(std::string_view)> on_text) {
    mcp::HttpRequest post;
    post.method = "POST";
    post.url = settings_.base_url + "/chat/completions";
    post.headers = {{"Content-Type", "application/json"}, {"Accept", "text/event-stream"}};
    if (!settings_.api_key.empty()) post.headers.emplace_back("Authorization", "Bearer " + settings_.api_key);
    post.body = request_text(request);

    ModelReply reply;
    // The text of one network read goes to the page as one piece.
    std::string unsent;
    std::function<void()> send_text = [&] {
        if (unsent.empty()) return;
        on_text(unsent);
        unsent.clear();
    };
    ToolCallAccumulator calls;
    auto on_event = [&](std::string_view data) {
        if (data == "[DONE]") return;
        boost::system::error_code ec;
        json::value chunk = json::parse(data, ec);
        if (ec || !chunk.is_object()) throw ModelError("the model sent an event that is not JSON: " + std::string(data.substr(0, 200)), 0, true);
        const auto& object = chunk.get_object();
        if (auto* error = object.if_contains("error"))
            throw ModelError("the model failed mid-answer: " + json::serialize(*error), 0, true);
        if (auto* usage = object.if_contains("usage"); usage && usage->is_object())
            reply.usage = token_usage_from(usage->get_object(), "prompt_tokens", "completion_tokens", "total_tokens");
        // vLLM ends with choices: null, OpenAI's usage chunk has choices: [].
        auto* choices = object.if_contains("choices");
        if (!choices || !choices->is_array()) return;
        for (const auto& choice_value : choices->get_array()) {
            if (!choice_value.is_object()) continue;
            const auto& choice = choice_value.get_object();
            if (auto* reason = choice.if_contains("finish_reason"); reason && reason->is_string())
                reply.finish_reason = std::string(reason->get_string());
            auto* delta_value = choice.if_contains("delta");
            if (!delta_value) delta_value = choice.if_contains("message");  // a non-streamed answer
            if (!delta_value || !delta_value->is_object()) continue;
            const auto& delta = delta_value->get_object();
            if (auto* content = delta.if_contains("content"); content && content->is_string() && !content->get_string().empty()) {
                reply.text += content->get_string();
                unsent += content->get_string();
            }
            if (auto* tool_calls = delta.if_contains("tool_calls"); tool_calls && tool_calls->is_array())
                for (const auto& item : tool_calls->get_array())
                    if (item.is_object()) calls.add(item.get_object());
        }
    };
    std::function<void(std::string_view)> handler = on_event;
    co_await stream_events(http, std::move(post), "openai", handler, send_text);
    reply.tool_calls = calls.finish();
    co_return reply;
}

}  // namespace mcpkit::host
