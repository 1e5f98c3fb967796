#include "host/llm/TextToolCalls.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <optional>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

/// The call a fenced block's body holds, if it is one: an object with a string "tool".
std::optional<ToolCall> call_in_block(std::string_view body) {
    boost::system::error_code ec;
    json::value parsed = json::parse(body, ec);
    const json::object* object = !ec && parsed.is_object() ? &parsed.get_object() : nullptr;
    const json::value* tool = object ? object->if_contains("tool") : nullptr;
    if (!tool || !tool->is_string()) return std::nullopt;
    ToolCall call;
    call.id = new_id("call");
    call.name = std::string(tool->get_string());
    if (auto* arguments = object->if_contains("arguments"); arguments && arguments->is_object())
        call.arguments = arguments->get_object();
    else if (arguments && !arguments->is_null())
        call.arguments_error = "\"arguments\" must be a JSON object";
    return call;
}

/// The answer's text as the person sees it: a fenced block that is a tool call is the host's
/// business, not text. Text is passed on until a fence opens; the block is then held until it
/// closes, and dropped if it is a call.
class FencedCallFilter : public AnswerSink {
public:
    explicit FencedCallFilter(AnswerSink& outer) : outer_(outer) {}
    void text(std::string_view piece) override {
        pending_ += piece;
        release(false);
    }
    void reasoning(std::string_view piece) override { outer_.reasoning(piece); }
    /// The end of the answer: what is held (an unclosed block, a lone backtick) is text after all.
    void finish() { release(true); }

private:
    void release(bool end) {
        std::string shown;
        while (true) {
            auto open = pending_.find("```");
            if (open == std::string::npos) {
                // One or two backticks at the end may be the start of a fence.
                std::size_t held = 0;
                while (!end && held < 2 && held < pending_.size() && pending_[pending_.size() - 1 - held] == '`') ++held;
                shown.append(pending_, 0, pending_.size() - held);
                pending_.erase(0, pending_.size() - held);
                break;
            }
            shown.append(pending_, 0, open);
            pending_.erase(0, open);
            auto body_start = pending_.find('\n');
            auto close = body_start == std::string::npos ? std::string::npos : pending_.find("```", body_start);
            if (close == std::string::npos) {
                if (end) {
                    shown += pending_;
                    pending_.clear();
                }
                break;
            }
            if (!call_in_block(std::string_view(pending_).substr(body_start + 1, close - body_start - 1)))
                shown.append(pending_, 0, close + 3);
            pending_.erase(0, close + 3);
        }
        if (!shown.empty()) outer_.text(shown);
    }

    AnswerSink& outer_;
    std::string pending_;
};

}  // namespace

std::vector<ToolCall> extract_text_tool_calls(std::string& text) {
    std::vector<ToolCall> calls;
    std::size_t search = 0;
    while (true) {
        auto open = text.find("```", search);
        if (open == std::string::npos) break;
        auto body_start = text.find('\n', open);
        if (body_start == std::string::npos) break;
        auto close = text.find("```", body_start);
        if (close == std::string::npos) break;
        auto call = call_in_block(std::string_view(text.data() + body_start + 1, close - body_start - 1));
        if (!call) {
            search = close + 3;
            continue;
        }
        calls.push_back(std::move(*call));
        text.erase(open, close + 3 - open);
        search = open;
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return calls;
}

std::string text_tool_prompt(const std::vector<ToolDeclaration>& tools) {
    std::string prompt =
        "You can use tools. To call one, answer with a fenced JSON block and nothing after it:\n"
        "```json\n{\"tool\": \"<tool name>\", \"arguments\": {<arguments>}}\n```\n"
        "The result comes back in the next message; then continue. Only call the tools listed here.\n\nTools:\n";
    for (const auto& tool : tools)
        prompt += "- " + tool.name + ": " + tool.description + "\n  arguments schema: " + json::serialize(tool.input_schema) + "\n";
    return prompt;
}

namespace {

class TextToolCallModel : public LanguageModel {
public:
    explicit TextToolCallModel(std::unique_ptr<LanguageModel> inner) : inner_(std::move(inner)) {}

    boost::asio::awaitable<ModelReply> generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                               AnswerSink& sink) override {
        std::vector<ChatMessage> history;
        for (const auto& message : request.history) {
            ChatMessage copy = message;
            if (message.role == Role::assistant) {
                for (const auto& call : message.tool_calls)
                    copy.content += "\n```json\n" +
                                    json::serialize(json::object{{"tool", call.name}, {"arguments", call.arguments}}) +
                                    "\n```";
                copy.tool_calls.clear();
            } else if (message.role == Role::tool) {
                copy.role = Role::user;
                copy.content = "Tool " + message.tool_name + (message.is_error ? " failed: " : " answered: ") + message.content;
            }
            history.push_back(std::move(copy));
        }
        ModelRequest plain;
        plain.history = history;
        plain.max_output_tokens = request.max_output_tokens;
        plain.model = request.model;
        plain.system_prompt = request.system_prompt;
        if (request.tools && !request.tools->empty()) plain.system_prompt += "\n\n" + text_tool_prompt(*request.tools);
        FencedCallFilter shown(sink);
        ModelReply reply;
        try {
            reply = co_await inner_->generate(plain, std::move(cancellation), shown);
        } catch (...) {
            shown.finish();  // text held at a possible fence was read by the person: it is kept
            throw;
        }
        shown.finish();
        reply.tool_calls = extract_text_tool_calls(reply.text);
        co_return reply;
    }
    boost::asio::awaitable<std::vector<ModelChoice>> list_models(mcp::CancellationToken cancellation) override {
        return inner_->list_models(std::move(cancellation));
    }
    const ModelSettings& settings() const override { return inner_->settings(); }
    void close_idle_connections() override { inner_->close_idle_connections(); }

private:
    std::unique_ptr<LanguageModel> inner_;
};

}  // namespace

std::unique_ptr<LanguageModel> with_text_tool_calls(std::unique_ptr<LanguageModel> model) {
    return std::make_unique<TextToolCallModel>(std::move(model));
}

}  // namespace mcpkit::host
