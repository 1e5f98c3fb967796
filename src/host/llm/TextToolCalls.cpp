#include "host/llm/TextToolCalls.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;

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
        std::string_view body(text.data() + body_start + 1, close - body_start - 1);
        boost::system::error_code ec;
        json::value parsed = json::parse(body, ec);
        const json::object* object = !ec && parsed.is_object() ? &parsed.get_object() : nullptr;
        const json::value* tool = object ? object->if_contains("tool") : nullptr;
        if (!tool || !tool->is_string()) {
            search = close + 3;
            continue;
        }
        ToolCall call;
        call.id = new_id("call");
        call.name = std::string(tool->get_string());
        if (auto* arguments = object->if_contains("arguments"); arguments && arguments->is_object())
            call.arguments = arguments->get_object();
        else if (arguments && !arguments->is_null())
            call.arguments_error = "\"arguments\" must be a JSON object";
        calls.push_back(std::move(call));
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
        plain.system_prompt = request.system_prompt;
        if (request.tools && !request.tools->empty()) plain.system_prompt += "\n\n" + text_tool_prompt(*request.tools);
        ModelReply reply = co_await inner_->generate(plain, std::move(cancellation), sink);
        reply.tool_calls = extract_text_tool_calls(reply.text);
        co_return reply;
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
