#include "host/llm/OpenAiChatModel.hpp"

#include "host/llm/ScratchJson.hpp"
#include "host/llm/StreamingRequest.hpp"
#include "host/llm/ToolCallAccumulator.hpp"

#include <mcp/jsonrpc/JsonWriter.hpp>

#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;

OpenAiChatModel::OpenAiChatModel(ModelSettings settings) : settings_(std::move(settings)), connections_(provider_http_options(settings_)) {
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

/// `,"name":"text"` — a member after the first.
void append_member(std::string& out, std::string_view name, std::string_view text) {
    out += ',';
    mcp::jsonrpc::append_json_string(out, name);
    out += ':';
    mcp::jsonrpc::append_json_string(out, text);
}

void append_message(std::string& out, const ChatMessage& message) {
    out += R"({"role":)";
    mcp::jsonrpc::append_json_string(out, role_name(message.role));
    switch (message.role) {
    case Role::user:
        if (message.context.empty()) append_member(out, "content", message.content);
        else append_member(out, "content", message.text_for_model());
        break;
    case Role::assistant:
        if (message.content.empty() && !message.tool_calls.empty()) out += R"(,"content":null)";
        else append_member(out, "content", message.content);
        if (!message.tool_calls.empty()) {
            out += R"(,"tool_calls":[)";
            for (std::size_t i = 0; i < message.tool_calls.size(); ++i) {
                const auto& call = message.tool_calls[i];
                out += i ? R"(,{"id":)" : R"({"id":)";
                mcp::jsonrpc::append_json_string(out, call.id);
                out += R"(,"type":"function","function":{"name":)";
                mcp::jsonrpc::append_json_string(out, call.name);
                // OpenAI carries a call's arguments as a string of JSON.
                append_member(out, "arguments", mcp::jsonrpc::to_json_text(call.arguments));
                out += "}}";
            }
            out += ']';
        }
        break;
    case Role::tool:
        append_member(out, "tool_call_id", message.tool_call_id);
        append_member(out, "content", message.content);
        break;
    }
    out += '}';
}

}  // namespace

// Written straight as text, not built as a DOM and serialized: it is the larger part of a turn's
// own work after the model's events, and the tools' part (kilobytes of schemas) is reused as is.
std::string OpenAiChatModel::request_text(const ModelRequest& request) {
    bool with_tools = request.tools && !request.tools->empty();
    if (with_tools && request.tools != cached_tools_) {
        cached_tools_ = request.tools;
        cached_tools_text_ = ",\"tools\":" + mcp::jsonrpc::to_json_text(tool_array(*request.tools)) + ",\"tool_choice\":\"auto\"";
    }
    std::string text;
    text.reserve(1024 + (with_tools ? cached_tools_text_.size() : 0));
    text += R"({"model":)";
    mcp::jsonrpc::append_json_string(text, settings_.model);
    text += R"(,"messages":[)";
    bool first = true;
    if (!request.system_prompt.empty()) {
        text += R"({"role":"system")";
        append_member(text, "content", request.system_prompt);
        text += '}';
        first = false;
    }
    for (const auto& message : request.history) {
        if (!first) text += ',';
        first = false;
        append_message(text, message);
    }
    // OpenAI refuses stream_options without a stream.
    text += settings_.stream ? R"(],"stream":true,"stream_options":{"include_usage":true},"temperature":)"
                             : R"(],"stream":false,"temperature":)";
    mcp::jsonrpc::append_json(text, json::value(settings_.temperature));
    text += R"(,"max_tokens":)";
    text += std::to_string(request.max_output_tokens);
    if (with_tools) text += cached_tools_text_;
    text += '}';
    return text;
}

boost::asio::awaitable<ModelReply> OpenAiChatModel::generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                                             AnswerSink& sink) {
    mcp::HttpRequest post;
    post.method = "POST";
    post.url = settings_.base_url + "/chat/completions";
    post.headers = {{"Content-Type", "application/json"}, {"Accept", "text/event-stream"}};
    if (!settings_.api_key.empty()) post.headers.emplace_back("Authorization", "Bearer " + settings_.api_key);
    post.body = request_text(request);

    ModelReply reply;
    ReadText read_text(sink);
    ToolCallAccumulator calls;
    ScratchJson scratch;
    auto on_event = [&](std::string_view data) {
        if (data == "[DONE]") return;
        const json::value* chunk = scratch.parse(data);
        if (!chunk || !chunk->is_object()) throw ModelError("the model sent an event that is not JSON: " + std::string(data.substr(0, 200)), 0, true);
        const auto& object = chunk->get_object();
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
                read_text.add(content->get_string());
            }
            if (auto* tool_calls = delta.if_contains("tool_calls"); tool_calls && tool_calls->is_array())
                for (const auto& item : tool_calls->get_array())
                    if (item.is_object()) calls.add(item.get_object());
        }
    };
    std::function<void(std::string_view)> handler = on_event;
    co_await stream_events(connections_, std::move(post), cancellation, "openai", handler, read_text);
    reply.tool_calls = calls.finish();
    co_return reply;
}

}  // namespace mcpkit::host
