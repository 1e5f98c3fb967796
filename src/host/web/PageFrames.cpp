#include "host/web/PageFrames.hpp"

#include "host/chat/ChatSession.hpp"
#include "host/llm/LanguageModel.hpp"

#include <mcp/jsonrpc/JsonWriter.hpp>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

/// {"type":…,"payload":{…}} with the payload's members appended as text, in the order given.
class FrameText {
public:
    explicit FrameText(std::string_view type) {
        text_.reserve(256);
        text_ += R"({"type":)";
        mcp::jsonrpc::append_json_string(text_, type);
        text_ += R"(,"payload":{)";
    }
    FrameText& text(std::string_view name, std::string_view value) {
        this->name(name);
        mcp::jsonrpc::append_json_string(text_, value);
        return *this;
    }
    /// Only when not empty (an optional member).
    FrameText& optional_text(std::string_view name, std::string_view value) {
        return value.empty() ? *this : text(name, value);
    }
    FrameText& flag(std::string_view name, bool value) {
        this->name(name);
        text_ += value ? "true" : "false";
        return *this;
    }
    FrameText& number(std::string_view name, std::int64_t value) {
        this->name(name);
        text_ += std::to_string(value);
        return *this;
    }
    FrameText& json(std::string_view name, const json::value& value) {
        this->name(name);
        mcp::jsonrpc::append_json(text_, value);
        return *this;
    }
    FrameText& json(std::string_view name, const json::object& value) {
        this->name(name);
        mcp::jsonrpc::append_json(text_, value);
        return *this;
    }
    FrameText& json(std::string_view name, const json::array& value) {
        this->name(name);
        mcp::jsonrpc::append_json(text_, json::value(value));
        return *this;
    }
    /// The frame, closed; the builder is spent.
    Frame finish() {
        text_ += "}}";
        return std::make_shared<const std::string>(std::move(text_));
    }

private:
    void name(std::string_view name) {
        if (!first_) text_ += ',';
        first_ = false;
        mcp::jsonrpc::append_json_string(text_, name);
        text_ += ':';
    }
    std::string text_;
    bool first_ = true;
};

}  // namespace

// ---- What a conversation reports ------------------------------------------------------------

void PageFrames::turn(ChatSession& session, TurnState state, const std::string& turn_id, const TurnEnd& end) {
    session.broadcast(turn_frame(state, turn_id, end));
}

void PageFrames::user_message(ChatSession& session, const std::string& turn_id, const ChatMessage& message) {
    session.broadcast(FrameText("user_message").text("turnId", turn_id).json("message", message_for_page(message)).finish());
}

void PageFrames::history_changed(ChatSession& session) {
    json::array messages;
    for (const auto& message : session.history) messages.push_back(message_for_page(message));
    session.broadcast(history(std::move(messages)));
}

json::object PageFrames::message_for_page(const ChatMessage& message) {
    json::object item = message.to_json();
    if (!message.other_versions.empty()) {
        item.erase("versions");
        item["versions"] = message.other_versions.size() + 1;
        item["version"] = message.version;
    }
    return item;
}

void PageFrames::text(ChatSession& session, const std::string& turn_id, const std::string& message_id,
                      std::string_view piece) {
    session.broadcast(text_frame(turn_id, message_id, piece));
}

void PageFrames::reasoning(ChatSession& session, const std::string& turn_id, const std::string& message_id,
                           std::string_view piece) {
    session.broadcast(reasoning_frame(turn_id, message_id, piece));
}

void PageFrames::retrying(ChatSession& session, const std::string& turn_id, const RetryNotice& notice) {
    session.broadcast(FrameText("retrying")
                          .text("turnId", turn_id)
                          .number("attempt", notice.attempt)
                          .number("attempts", notice.attempts)
                          .number("delayMs", notice.delay.count())
                          .text("reason", notice.reason)
                          .finish());
}

void PageFrames::tool_started(ChatSession& session, const ToolCard& card, const json::object& arguments) {
    // Said as people read it ("Calling read_file on files"), not as the model names it.
    std::string_view tool = card.tool;
    std::string prefix = card.server + "__";
    if (!card.server.empty() && tool.starts_with(prefix)) tool.remove_prefix(prefix.size());
    std::string message = "Calling " + std::string(tool) + (card.server.empty() ? "" : " on " + card.server);
    session.broadcast(FrameText("status")
                          .text("state", "processing")
                          .text("tool", card.tool)
                          .text("server", card.server)
                          .text("callId", card.call_id)
                          .optional_text("turnId", card.turn_id)
                          .json("arguments", arguments)
                          .text("message", message)
                          .finish());
}

void PageFrames::tool_progress(ChatSession& session, const std::string& call_id, double progress,
                               std::optional<double> total, const std::string& message) {
    FrameText frame("progress");
    frame.text("callId", call_id).json("progress", json::value(progress));
    if (total) frame.json("total", json::value(*total));
    frame.optional_text("message", message);
    session.broadcast(frame.finish());
}

void PageFrames::tool_task(ChatSession& session, const std::string& call_id, const std::string& task_id,
                           const std::string& status, const std::string& message) {
    session.broadcast(FrameText("task")
                          .text("callId", call_id)
                          .text("taskId", task_id)
                          .text("status", status)
                          .optional_text("message", message)
                          .finish());
}

void PageFrames::tool_finished(ChatSession& session, const ToolCard& card, const ToolEnding& ending) {
    FrameText frame("status");
    frame.text("state", "complete")
        .text("tool", card.tool)
        .text("server", card.server)
        .text("callId", card.call_id)
        .optional_text("turnId", card.turn_id)
        .json("data", ending.result)
        .flag("isError", ending.is_error)
        .number("durationMs", ending.duration.count())
        .text("message", ending.message);
    if (ending.refused) frame.flag("refused", true);
    if (!ending.app.is_null()) frame.json("app", ending.app);
    session.broadcast(frame.finish());
}

void PageFrames::question_opened(ChatSession& session, const Question& asked) { session.broadcast(question(asked)); }

void PageFrames::question_closed(ChatSession& session, const std::string& id, std::string_view reason) {
    session.broadcast(FrameText("question_closed").text("id", id).text("reason", reason).finish());
}

void PageFrames::usage(ChatSession& session, const TokenUsage& total) { session.broadcast(usage_frame(total)); }

void PageFrames::flush(ChatSession& session) { session.send_queued(); }

// ---- A page that just connected -------------------------------------------------------------

Frame PageFrames::connection(bool resumed, const std::string& session_id) {
    return FrameText("connection")
        .text("state", resumed ? "reconnected" : "connected")
        .text("message", resumed ? "Welcome back."
                                 : "Hello! I'm an AI assistant that can help answer questions and use tools to get "
                                   "information.")
        .text("sessionId", session_id)
        .finish();
}

Frame PageFrames::opened(const std::string& session_id) {
    return FrameText("connection").text("state", "opened").text("sessionId", session_id).finish();
}

Frame PageFrames::text_frame(const std::string& turn_id, const std::string& message_id, std::string_view text) {
    return FrameText("text").text("content", text).text("turnId", turn_id).text("messageId", message_id).finish();
}

Frame PageFrames::reasoning_frame(const std::string& turn_id, const std::string& message_id, std::string_view text) {
    return FrameText("reasoning").text("content", text).text("turnId", turn_id).text("messageId", message_id).finish();
}

Frame PageFrames::conversation_renamed(const std::string& session_id, const std::string& title) {
    return FrameText("conversation").text("sessionId", session_id).text("title", title).finish();
}

Frame PageFrames::conversation_deleted(const std::string& session_id) {
    return FrameText("conversation").text("sessionId", session_id).flag("deleted", true).finish();
}

Frame PageFrames::approvals(const std::string& request_id, const std::vector<ListedApproval>& approvals) {
    json::array items;
    for (const auto& [approval, scope] : approvals)
        items.push_back(json::object{{"tool", approval.qualified_name},
                                     {"server", approval.server},
                                     {"name", approval.tool},
                                     {"scope", scope == ApprovalScope::always ? "always" : "conversation"},
                                     {"since", approval.since}});
    return FrameText("approvals").text("requestId", request_id).json("items", items).finish();
}

Frame PageFrames::conversations(const std::string& request_id, const ConversationPage& page) {
    json::array items;
    items.reserve(page.items.size());
    for (const auto& item : page.items)
        items.push_back(json::object{{"sessionId", item.id}, {"title", item.title}, {"updatedAt", item.updated_at}});
    return FrameText("conversations").text("requestId", request_id).json("items", items).optional_text("next", page.next).finish();
}

Frame PageFrames::history(json::array messages) { return FrameText("history").json("messages", messages).finish(); }

Frame PageFrames::usage_frame(const TokenUsage& total) {
    return FrameText("usage")
        .number("promptTokens", total.prompt_tokens)
        .number("completionTokens", total.completion_tokens)
        .number("totalTokens", total.total_tokens)
        .finish();
}

Frame PageFrames::turn_frame(TurnState state, const std::string& turn_id, const TurnEnd& end) {
    return FrameText("turn")
        .text("state", turn_state_name(state))
        .text("turnId", turn_id)
        .optional_text("message", end.message)
        .optional_text("details", end.details)
        .optional_text("notice", end.notice)
        .finish();
}

Frame PageFrames::model(const std::string& model, const std::string& default_model) {
    return FrameText("model").text("model", model).text("default", default_model).finish();
}

Frame PageFrames::models(const std::string& request_id, const std::vector<ModelChoice>& models, const std::string& error) {
    json::array list;
    for (const auto& model : models) {
        json::object item{{"id", model.id}};
        if (!model.display_name.empty()) item["displayName"] = model.display_name;
        list.push_back(std::move(item));
    }
    return FrameText("models").text("requestId", request_id).json("models", list).optional_text("error", error).finish();
}

Frame PageFrames::question(const Question& question) {
    if (auto* approval = std::get_if<ApprovalQuestion>(&question)) {
        FrameText frame("approval_request");
        frame.text("callId", approval->call_id)
            .text("tool", approval->tool)
            .text("server", approval->server)
            .json("arguments", approval->arguments)
            .text("description", approval->description);
        if (!approval->changed.empty()) {
            json::array changed;
            for (const auto& field : approval->changed) changed.push_back(json::value(field));
            frame.json("changed", changed).text("previousDescription", approval->previous_description);
        }
        return frame.finish();
    }
    if (auto* sampling = std::get_if<SamplingQuestion>(&question)) {
        FrameText frame("sampling_request");
        frame.text("requestId", sampling->request_id).text("server", sampling->server);
        for (std::string_view key : {"messages", "systemPrompt", "maxTokens"})
            if (auto* value = sampling->params.if_contains(key)) frame.json(key, *value);
        return frame.finish();
    }
    const auto& elicitation = std::get<ElicitationQuestion>(question);
    FrameText frame("elicitation_request");
    frame.text("requestId", elicitation.request_id)
        .text("server", elicitation.server)
        .text("message", elicitation.message)
        .text("mode", elicitation.mode);
    if (elicitation.requested_schema) frame.json("requestedSchema", *elicitation.requested_schema);
    if (elicitation.url) frame.json("url", *elicitation.url);
    return frame.finish();
}

// ---- Every session --------------------------------------------------------------------------

Frame PageFrames::servers(const json::array& servers, const LanguageModel* model, const std::string& llm_help) {
    FrameText frame("servers");
    frame.json("servers", servers);
    if (model)
        frame.json("llm", json::object{{"provider", model->settings().provider}, {"model", model->settings().model}});
    else
        frame.json("llm", json::value(nullptr)).text("llmHelp", llm_help);
    return frame.finish();
}

Frame PageFrames::auth_required(const std::string& server, const std::string& url) {
    return FrameText("auth_required").text("server", server).text("url", url).finish();
}

// ---- Answers to one page's request ----------------------------------------------------------

Frame PageFrames::tool_result(const std::string& request_id, const std::string& tool, const ToolRunResult& run) {
    FrameText frame("tool_result");
    frame.text("requestId", request_id)
        .text("tool", tool)
        .json("result", run.outcome.result)
        .flag("isError", run.outcome.is_error)
        .number("durationMs", run.outcome.duration.count());
    if (!run.app.is_null()) frame.json("app", run.app);
    return frame.finish();
}

Frame PageFrames::prompt(const std::string& request_id, const json::array& messages) {
    return FrameText("prompt").text("requestId", request_id).json("messages", messages).finish();
}

Frame PageFrames::resource(const std::string& request_id, const std::string& uri, const json::array& contents) {
    return FrameText("resource").text("requestId", request_id).text("uri", uri).json("contents", contents).finish();
}

Frame PageFrames::app_response(const std::string& request_id, const json::value& result, const json::object& error) {
    FrameText frame("app_response");
    frame.text("requestId", request_id);
    if (!error.empty()) frame.json("error", error);
    else frame.json("result", result);
    return frame.finish();
}

Frame PageFrames::error(const std::string& message, const std::string& request_id) {
    return FrameText("error").text("message", message).optional_text("requestId", request_id).finish();
}

}  // namespace mcpkit::host
