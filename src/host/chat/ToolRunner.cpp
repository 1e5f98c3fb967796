#include "host/chat/ToolRunner.hpp"

#include "host/chat/UserQuestions.hpp"

#include <mcp/JsonFields.hpp>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

std::string_view caller_name(ToolCaller caller) {
    switch (caller) {
    case ToolCaller::model: return "model";
    case ToolCaller::hand: return "user";
    case ToolCaller::view: return "app";
    }
    return "user";
}

/// A session's call to a server is running: that server's own requests (sampling, elicitation)
/// are routed to this session meanwhile.
class ServerInUse {
public:
    ServerInUse(ChatSession& session, std::string server) : session_(session), server_(std::move(server)) {
        ++session_.servers_in_use[server_];
    }
    ~ServerInUse() {
        if (--session_.servers_in_use[server_] <= 0) session_.servers_in_use.erase(server_);
    }
    ServerInUse(const ServerInUse&) = delete;
    ServerInUse& operator=(const ServerInUse&) = delete;

private:
    ChatSession& session_;
    std::string server_;
};

}  // namespace

asio::awaitable<ToolRunResult> ToolRunner::run(std::shared_ptr<ChatSession> session, ToolCaller caller,
                                               const ToolCall& call, std::shared_ptr<const RegisteredTool> tool) {
    // No conditional expressions with temporaries here: g++ 12 miscompiles them in coroutines.
    ToolCard card;
    card.call_id = call.id;
    card.tool = call.name;
    if (tool) card.server = tool->server;
    if (caller == ToolCaller::model) card.turn_id = session->turn_id;
    if (caller == ToolCaller::model) events_.tool_started(*session, card, call.arguments);
    if (log_.enabled(LogLevel::info))
        log_.info("MCP", "tool_call_started",
                  {{"sessionId", session->id()}, {"caller", caller_name(caller)}, {"callId", call.id}, {"tool", call.name}});

    ToolRunResult run;
    bool asked = false;
    if (!call.arguments_error.empty()) {
        run.refusal = "Your arguments for " + call.name + " could not be read: " + call.arguments_error;
    } else if (tool && caller != ToolCaller::hand) {
        // The user calling by hand has just said what to run; the model and a view are asked for.
        asked = tool->needs_approval && !session->always_allowed.allows(call.name, tool->server, tool->tool) &&
                !always_.allows(call.name, tool->server, tool->tool);
        bool allowed = co_await approved(*session, call, *tool, run.refusal, run.edited_arguments);
        if (!allowed && run.refusal.empty()) run.refusal = "The user declined this call.";
    }
    if (run.refusal.empty()) {
        ServerInUse in_use(*session, card.server);
        ToolCallOptions options;  // named: g++ 12 mishandles a braced temporary inside co_await
        options.caller = std::string(caller_name(caller));
        options.session_id = session->id();
        if (caller == ToolCaller::model) {
            options.cancellation = session->stop_token();
            std::weak_ptr<ChatSession> weak = session;
            ChatEvents* events = &events_;
            std::string call_id = call.id;
            options.on_progress = [weak, events, call_id](double progress, std::optional<double> total,
                                                          const std::string& text) {
                if (auto alive = weak.lock()) events->tool_progress(*alive, call_id, progress, total, text);
            };
            options.on_task = [weak, events, call_id](const mcp::TaskUpdate& update) {
                if (auto alive = weak.lock()) {
                    events->tool_task(*alive, call_id, update.task_id, update.status, update.message);
                    events->flush(*alive);
                }
            };
        }
        json::object arguments = call.arguments;  // named: g++ 12 mishandles temporaries inside co_await
        if (run.edited_arguments) arguments = *run.edited_arguments;
        run.outcome = co_await coordinator_.call_tool(call.name, std::move(arguments), std::move(options));
    } else {
        run.outcome = ToolOutcome::refusal(run.refusal);
    }
    if (apps_ && tool && !run.outcome.refused && caller != ToolCaller::view) run.app = co_await apps_->app_for(*tool);

    // A view's call gets a card only when the user was asked (the question opened one), so the
    // transcript shows what the view did.
    if (caller == ToolCaller::model || (caller == ToolCaller::view && asked)) {
        ToolEnding ending{run.outcome.result, run.outcome.is_error, run.outcome.duration, "Done", run.app,
                          run.outcome.refused};
        if (caller == ToolCaller::view) ending.message = "Called by the app's view";
        else if (run.outcome.refused) ending.message = "Not run";
        else if (run.outcome.is_error) ending.message = "The call failed";
        events_.tool_finished(*session, card, ending);
    }
    if (log_.enabled(LogLevel::info))
        log_.info("MCP", "tool_call_finished",
                  {{"sessionId", session->id()}, {"caller", caller_name(caller)}, {"callId", card.call_id},
                   {"tool", card.tool}, {"isError", run.outcome.is_error}, {"durationMs", run.outcome.duration.count()}});
    co_return run;
}

asio::awaitable<bool> ToolRunner::approved(ChatSession& session, const ToolCall& call, const RegisteredTool& tool,
                                           std::string& refusal, std::optional<json::object>& edited) {
    if (!tool.needs_approval || session.always_allowed.allows(call.name, tool.server, tool.tool) ||
        always_.allows(call.name, tool.server, tool.tool))
        co_return true;
    ApprovalQuestion question{call.id, call.name, tool.server, call.arguments, tool.tool.description, {}, {}};
    // Allowed once for good, then redefined by its server: the user decides again, knowing what changed.
    bool redefined_since_always = !always_.changes(call.name, tool.tool).empty();  // named: g++ 12, coroutines
    const StandingApprovals& before = redefined_since_always ? always_ : session.always_allowed;
    if (auto changed = before.changes(call.name, tool.tool); !changed.empty()) {
        question.changed = std::move(changed);
        question.previous_description = before.allowed_description(call.name);
    }
    auto answer = co_await ask_user(session, events_, std::move(question), approval_timeout_);
    if (!answer) {
        refusal = session.stopped() ? "The user stopped the turn before approving this call."
                                    : "The user did not approve this call in time.";
        co_return false;
    }
    std::string decision = mcp::json_fields::text(*answer, "decision");
    if (decision == "deny") {
        refusal = "The user declined this call.";
        co_return false;
    }
    if (auto* arguments = answer->if_contains("arguments"); arguments && arguments->is_object() &&
                                                            arguments->get_object() != call.arguments)
        edited = arguments->get_object();
    std::int64_t now = now_milliseconds();
    if (decision == "conversation") session.always_allowed.allow(call.name, tool.server, tool.tool, now);
    if (decision == "always") {
        always_.allow(call.name, tool.server, tool.tool, now);
        if (store_) {
            try {
                store_->keep_approval({call.name, tool.server, tool.tool.to_json(), now});
            } catch (const std::exception& e) {
                // Allowed for as long as this host runs; the store says why not longer.
                log_.error("Session", "store_failed", {{"sessionId", session.id()}, {"error", e.what()}});
            }
        }
    }
    if (log_.enabled(LogLevel::info))
        log_.info("MCP", "tool_call_approved", {{"sessionId", session.id()}, {"tool", call.name}, {"scope", decision},
                                                {"argumentsEdited", edited.has_value()}});
    co_return true;
}

void ToolRunner::keep_approvals_in(ChatStore& store) {
    store_ = &store;
    try {
        for (const auto& kept : store.approvals()) {
            try {
                always_.allow(kept.qualified_name, kept.server, mcp::Tool::from_json(kept.tool), kept.since);
            } catch (const std::exception&) {
                // A damaged entry: that tool is asked about again.
            }
        }
    } catch (const std::exception& e) {
        log_.error("Session", "store_failed", {{"error", std::string("reading the approvals: ") + e.what()}});
    }
}

std::vector<ListedApproval> ToolRunner::standing_approvals(const ChatSession& session) const {
    std::vector<ListedApproval> list;
    for (auto& approval : session.always_allowed.list()) list.push_back({std::move(approval), ApprovalScope::conversation});
    for (auto& approval : always_.list()) list.push_back({std::move(approval), ApprovalScope::always});
    return list;
}

bool ToolRunner::revoke(ChatSession& session, const std::string& qualified_name, ApprovalScope scope) {
    if (scope == ApprovalScope::conversation) return session.always_allowed.revoke(qualified_name);
    bool had = always_.revoke(qualified_name);
    if (store_) store_->forget_approval(qualified_name);  // a failure is the page's to hear
    return had;
}

}  // namespace mcpkit::host
