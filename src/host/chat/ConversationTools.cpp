// The tools a conversation offers its model and the host's own tools it answers
// (chat/HostTools): the part of the conversation that decides what the model may call.

#include "host/chat/Conversation.hpp"

#include "host/history/HistoryWindow.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace mcpkit::host {
namespace json = boost::json;

std::int64_t Conversation::declared_tokens(const std::vector<ToolDeclaration>& tools) {
    std::int64_t tokens = 0;
    for (const auto& tool : tools)
        tokens += estimate_tokens(tool.name) + estimate_tokens(tool.description) +
                  estimate_tokens(json::serialize(tool.input_schema));
    return tokens;
}

ToolList Conversation::choose_tools(ChatSession& session) {
    ToolList all = coordinator_.tools_for_model();
    if (all != all_tools_) {
        all_tools_ = all;
        all_tool_tokens_ = declared_tokens(*all);
    }
    // Past 64 tools, or a tenth of the window, a model chooses worse and the request grows
    // (VS Code and Claude Code switch to a tool search there too).
    bool too_many = all->size() > max_offered_tools || all_tool_tokens_ > model_->settings().context_tokens / 10;
    bool with_reader = std::any_of(session.history.begin(), session.history.end(),
                                   [](const ChatMessage& message) { return message.cut; });
    if (!too_many && !with_reader) return all;
    if (!session.tool_choice) session.tool_choice = std::make_unique<ToolChoice>();
    ToolChoice& choice = *session.tool_choice;
    std::vector<std::string> wanted;
    if (too_many) {
        // What the model found last, then what the conversation used (its own recent needs).
        wanted = choice.found;
        for (auto& name : recently_used_tools(session.history)) wanted.push_back(std::move(name));
    }
    if (choice.offered && choice.built_from == all && choice.wanted == wanted && choice.with_reader == with_reader)
        return choice.offered;
    choice.offered = std::make_shared<const std::vector<ToolDeclaration>>(offered_tools(*all, too_many, wanted, with_reader));
    choice.built_from = all;
    choice.wanted = std::move(wanted);
    choice.with_reader = with_reader;
    if (too_many && log_.enabled(LogLevel::info))
        log_.info("LLM", "tools_searched", {{"sessionId", session.id()}, {"tools", all->size()},
                                            {"offered", choice.offered->size()}});
    return choice.offered;
}

void Conversation::run_host_tool(ChatSession& session, const ToolCall& call) {
    auto started = std::chrono::steady_clock::now();
    ToolCard card{call.id, call.name, "host", session.turn_id};
    events_.tool_started(session, card, call.arguments);
    HostToolAnswer answer;
    if (!call.arguments_error.empty()) {
        answer = {"The arguments were not a JSON object: " + call.arguments_error, true, {}};
    } else if (call.name == search_tools_name) {
        answer = search_tools(*coordinator_.tools_for_model(), call.arguments);
        if (!answer.found.empty()) {
            if (!session.tool_choice) session.tool_choice = std::make_unique<ToolChoice>();
            auto& found = session.tool_choice->found;
            for (auto name = answer.found.rbegin(); name != answer.found.rend(); ++name) {
                std::erase(found, *name);
                found.insert(found.begin(), *name);
            }
            if (found.size() > 32) found.resize(32);
        }
    } else {
        answer = read_tool_result(session.history, call.arguments);
    }
    mcp::CallToolResult result = answer.is_error ? mcp::CallToolResult::error(answer.text) : mcp::CallToolResult::text(answer.text);
    json::object data = result.to_json();
    auto duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    static const json::value no_app;
    events_.tool_finished(session, card, {data, answer.is_error, duration, answer.is_error ? "The call failed" : "Done", no_app});
    ChatMessage message;
    message.id = new_id("msg");
    message.role = Role::tool;
    message.tool_call_id = call.id;
    message.tool_name = call.name;
    message.content = std::move(answer.text);
    message.data = std::move(data);
    message.is_error = answer.is_error;
    record(session, std::move(message));
}

}  // namespace mcpkit::host
