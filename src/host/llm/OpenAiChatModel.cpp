#include "host/llm/OpenAiChatModel.hpp"

#include "host/llm/ModelErrors.hpp"
#include "host/llm/OpenAiAnswerReader.hpp"
#include "host/llm/ScratchJson.hpp"
#include "host/llm/StreamingRequest.hpp"

#include <mcp/JsonFields.hpp>
#include <mcp/jsonrpc/JsonWriter.hpp>

#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

bool is_openai_itself(const std::string& base_url) {
    auto url = boost::urls::parse_uri(base_url);
    if (!url) return false;
    std::string host(url->host());
    return host == "api.openai.com" || (host.size() > 17 && host.ends_with(".openai.azure.com"));
}

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

void append_tool_calls(std::string& out, const std::vector<ToolCall>& calls) {
    out += R"(,"tool_calls":[)";
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const auto& call = calls[i];
        out += i ? R"(,{"id":)" : R"({"id":)";
        mcp::jsonrpc::append_json_string(out, call.id);
        out += R"(,"type":"function","function":{"name":)";
        mcp::jsonrpc::append_json_string(out, call.name);
        // OpenAI carries a call's arguments as a string of JSON.
        append_member(out, "arguments", mcp::jsonrpc::to_json_text(call.arguments));
        out += '}';
        // Gemini 3's thought signature, which its compatibility layer wants back with the call.
        if (auto* extra = call.provider_data.if_contains("extra_content")) {
            out += R"(,"extra_content":)";
            mcp::jsonrpc::append_json(out, *extra);
        }
        out += '}';
    }
    out += ']';
}

/// Pictures as content parts (data URLs), after `text`.
void append_image_parts(std::string& out, std::string_view text, const std::vector<MessageImage>& images) {
    json::array parts;
    parts.push_back(json::object{{"type", "text"}, {"text", text}});
    for (const auto& image : images)
        parts.push_back(json::object{{"type", "image_url"},
                                     {"image_url", {{"url", "data:" + image.mime_type + ";base64," + image.data}}}});
    mcp::jsonrpc::append_json(out, json::value(std::move(parts)));
}

/// The text a message says, with a line for each picture the model cannot take.
std::string with_image_notes(std::string text, const std::vector<MessageImage>& images) {
    for (const auto& image : images) text += (text.empty() ? "" : "\n") + image_note(image);
    return text;
}

/// `with_reasoning`: the message's reasoning goes back with it (see reasoning_echoed); `images`:
/// the model takes pictures.
void append_message(std::string& out, const ChatMessage& message, bool with_reasoning, bool images) {
    out += R"({"role":)";
    mcp::jsonrpc::append_json_string(out, role_name(message.role));
    switch (message.role) {
    case Role::user:
        if (!message.images.empty() && images) {
            out += R"(,"content":)";
            append_image_parts(out, message.text_for_model(), message.images);
        } else if (!message.images.empty()) {
            append_member(out, "content", with_image_notes(message.text_for_model(), message.images));
        } else if (message.context.empty()) {
            append_member(out, "content", message.content);
        } else {
            append_member(out, "content", message.text_for_model());
        }
        break;
    case Role::assistant:
        if (message.content.empty() && !message.tool_calls.empty()) out += R"(,"content":null)";
        else append_member(out, "content", message.content);
        if (with_reasoning) append_member(out, "reasoning_content", message.reasoning);
        if (!message.tool_calls.empty()) append_tool_calls(out, message.tool_calls);
        break;
    case Role::tool:
        append_member(out, "tool_call_id", message.tool_call_id);
        // A tool message is text only: its pictures follow the run of tool messages (below).
        if (images) append_member(out, "content", message.content);
        else append_member(out, "content", with_image_notes(message.content, images_for_model(message)));
        break;
    }
    out += '}';
}

/// Which assistant messages carry their reasoning_content back. DeepSeek's thinking mode: "between
/// two user messages, if the model made tool calls, the assistant reasoning_content must be passed
/// back in all subsequent requests" (api-docs.deepseek.com/guides/thinking_mode), every answer of
/// that stretch included; other stretches' reasoning is left out, as the guide advises.
std::vector<bool> reasoning_echoed(std::span<const ChatMessage> history) {
    std::vector<bool> echoed(history.size(), false);
    std::size_t start = 0;
    auto close_stretch = [&](std::size_t end) {
        bool calls = false;
        bool thought = false;
        for (std::size_t i = start; i < end; ++i) {
            calls = calls || !history[i].tool_calls.empty();
            thought = thought || history[i].provider_data.contains("reasoning_content");
        }
        if (calls && thought)
            for (std::size_t i = start; i < end; ++i) echoed[i] = history[i].role == Role::assistant;
    };
    for (std::size_t i = 0; i < history.size(); ++i)
        if (history[i].role == Role::user) {
            close_stretch(i);
            start = i + 1;
        }
    close_stretch(history.size());
    return echoed;
}

/// An answer that failed before anything was written is shown in the chat, but is nothing the
/// model said.
bool sent_to_model(const ChatMessage& message) {
    return message.role != Role::assistant || !message.content.empty() || !message.tool_calls.empty();
}

}  // namespace

OpenAiChatModel::OpenAiChatModel(ModelSettings settings) : settings_(std::move(settings)), connections_(provider_http_options(settings_)) {
    while (!settings_.base_url.empty() && settings_.base_url.back() == '/') settings_.base_url.pop_back();
    openai_itself_ = is_openai_itself(settings_.base_url);
}

bool OpenAiChatModel::learn_refusal(const std::string& model, const std::string& parameter) {
    Refusals& refused = refusals_[model];
    if (refused.parameters.contains(parameter)) return false;  // not sent: the refusal is about something else
    if (parameter == "max_tokens" || parameter == "max_completion_tokens") {
        bool completion_name = refused.completion_tokens_name.value_or(openai_itself_);
        if (parameter != (completion_name ? "max_completion_tokens" : "max_tokens")) return false;
        if (refused.completion_tokens_name) {
            // Refused under its other name too: the limit is left out.
            refused.parameters.insert("max_tokens");
            refused.parameters.insert("max_completion_tokens");
        } else {
            refused.completion_tokens_name = !completion_name;
        }
        return true;
    }
    static const std::set<std::string, std::less<>> optional{"temperature", "stream_options", "tool_choice"};
    if (!optional.contains(parameter)) return false;
    refused.parameters.insert(parameter);
    return true;
}

// Written straight as text, not built as a DOM and serialized: it is the larger part of a turn's
// own work after the model's events, and the tools' part (kilobytes of schemas) is reused as is.
std::string OpenAiChatModel::request_text(const ModelRequest& request) {
    const std::string& model = model_of(request);
    auto found = refusals_.find(model);
    const Refusals* refused = found == refusals_.end() ? nullptr : &found->second;
    auto takes = [&](std::string_view parameter) { return !refused || !refused->parameters.contains(parameter); };
    bool with_tools = request.tools && !request.tools->empty();
    if (with_tools && request.tools != cached_tools_) {
        cached_tools_ = request.tools;
        cached_tools_text_ = ",\"tools\":" + mcp::jsonrpc::to_json_text(tool_array(*request.tools));
    }
    std::string text;
    text.reserve(1024 + (with_tools ? cached_tools_text_.size() : 0));
    text += R"({"model":)";
    mcp::jsonrpc::append_json_string(text, model);
    text += R"(,"messages":[)";
    bool first = true;
    if (!request.system_prompt.empty()) {
        text += R"({"role":"system")";
        append_member(text, "content", request.system_prompt);
        text += '}';
        first = false;
    }
    std::vector<bool> with_reasoning = reasoning_echoed(request.history);
    for (std::size_t i = 0; i < request.history.size(); ++i) {
        if (!sent_to_model(request.history[i])) continue;
        if (!first) text += ',';
        first = false;
        append_message(text, request.history[i], with_reasoning[i], settings_.images);
        // The pictures of a run of tool results, as the user message after it: OpenAI's tool
        // messages take text only, and nothing may come between a call and its result.
        bool run_ends = request.history[i].role == Role::tool &&
                        (i + 1 == request.history.size() || request.history[i + 1].role != Role::tool);
        if (run_ends && settings_.images) {
            std::vector<MessageImage> pictures;
            for (std::size_t j = i + 1; j-- > 0 && request.history[j].role == Role::tool;) {
                auto found = images_for_model(request.history[j]);
                pictures.insert(pictures.begin(), found.begin(), found.end());
            }
            if (!pictures.empty()) {
                text += R"(,{"role":"user","content":)";
                append_image_parts(text, "The pictures the tool results above returned:", pictures);
                text += '}';
            }
        }
    }
    text += R"(],"stream":)";
    text += settings_.stream ? "true" : "false";
    // OpenAI refuses stream_options without a stream.
    if (settings_.stream && takes("stream_options")) text += R"(,"stream_options":{"include_usage":true})";
    if (settings_.temperature && takes("temperature")) {
        text += R"(,"temperature":)";
        mcp::jsonrpc::append_json(text, json::value(*settings_.temperature));
    }
    if (auto limit = request.max_output_tokens ? request.max_output_tokens : settings_.max_output_tokens) {
        bool completion_name =
            refused && refused->completion_tokens_name ? *refused->completion_tokens_name : openai_itself_;
        std::string_view name = completion_name ? "max_completion_tokens" : "max_tokens";
        if (takes(name)) {
            text += ",\"";
            text += name;
            text += "\":";
            text += std::to_string(*limit);
        }
    }
    if (with_tools) {
        text += cached_tools_text_;
        if (takes("tool_choice")) text += R"(,"tool_choice":"auto")";
    }
    text += '}';
    return text;
}

boost::asio::awaitable<ModelReply> OpenAiChatModel::generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                                             AnswerSink& sink) {
    for (int attempt = 0;; ++attempt) {
        mcp::HttpRequest post;
        post.method = "POST";
        post.url = settings_.base_url + "/chat/completions";
        post.headers = {{"Content-Type", "application/json"}, {"Accept", "text/event-stream"}};
        if (!settings_.api_key.empty()) post.headers.emplace_back("Authorization", "Bearer " + settings_.api_key);
        post.body = request_text(request);

        ModelReply reply;
        StreamedAnswer answer(sink, reply);
        OpenAiAnswerReader reader(reply, answer);
        ScratchJson scratch;
        EventHandler on_event = json_object_events(scratch, "openai", [&](const json::object& chunk) { reader.read(chunk); });
        std::string unsupported;
        try {
            co_await stream_events(connections_, std::move(post), cancellation, "openai", on_event, answer);
        } catch (const ModelError& e) {
            // A parameter the server names as unsupported is left out and the request sent again
            // (the refusal came before any text); each retry must learn something new, so there
            // are at most as many as there are optional parameters.
            if (attempt >= 4 || e.unsupported_parameter.empty() || !learn_refusal(model_of(request), e.unsupported_parameter))
                throw;
            unsupported = e.unsupported_parameter;
        }
        if (!unsupported.empty()) continue;
        reader.finish();
        if (!answer.heard) throw empty_answer_error("openai");
        co_return reply;
    }
}

boost::asio::awaitable<std::vector<ModelChoice>> OpenAiChatModel::list_models(mcp::CancellationToken cancellation) {
    mcp::HttpRequest get;
    get.method = "GET";
    get.url = settings_.base_url + "/models";
    if (!settings_.api_key.empty()) get.headers.emplace_back("Authorization", "Bearer " + settings_.api_key);
    json::value list = co_await fetch_json(connections_, std::move(get), cancellation, "openai");
    std::vector<ModelChoice> models;
    if (!list.is_object()) co_return models;
    for (const auto& item : json_fields::array(list.get_object(), "data"))
        if (item.is_object())
            if (std::string id = json_fields::text(item.get_object(), "id"); !id.empty()) models.push_back({id, {}});
    co_return models;
}

}  // namespace mcpkit::host
