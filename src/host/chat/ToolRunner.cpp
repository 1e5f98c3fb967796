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
        asked = tool->needs_approval && !session->always_allowed.allows(call.name, tool->server, tool->tool);
        bool allowed = co_await approved(*session, call, *tool, run.refusal);
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
                                           std::string& refusal) {
    if (!tool.needs_approval || session.always_allowed.allows(call.name, tool.server, tool.tool)) co_return true;
    ApprovalQuestion question{call.id, call.name, tool.server, call.arguments, tool.tool.description, {}, {}};
    // Allowed always once, then redefined by its server: the user decides again, knowing what changed.
    if (auto changed = session.always_allowed.changes(call.name, tool.tool); !changed.empty()) {
        question.changed = std::move(changed);
        question.previous_description = session.always_allowed.allowed_description(call.name);
    }
    auto answer = co_await ask_user(session, events_, std::move(question), approval_timeout_);
    if (!answer) {
        refusal = session.stopped() ? "The user stopped the turn before approving this call."
                                    : "The user did not approve this call in time.";
        co_return false;
    }
    std::string decision = mcp::json_fields::text(*answer, "decision");
    if (decision == "always") session.always_allowed.allow(call.name, tool.server, tool.tool);
    if (decision == "once" || decision == "always") co_return true;
    refusal = "The user declined this call.";
    co_return false;
}

}  // namespace mcpkit::host
