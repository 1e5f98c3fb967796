#pragma once
// One way to run a tool call, whoever asks: the model (in a turn), the user by hand (the server
// panel), or an MCP App's view. Each caller differs only in what it is allowed and what it shows:
//
//   caller  approval  card (ChatEvents)            cancelled by  progress  app view looked up
//   model   yes       started, progress, finished   Stop          yes       yes
//   hand    no        none (the page is answered)   -             no        yes
//   view    yes       finished, when the user was asked  -        no        no (the view has it)
//
// The servers-in-use count (which session a server's own requests belong to), the coordinator's
// checks and timeouts, errors as an MCP CallToolResult and the log lines are the same for all.

#include "host/HostLog.hpp"
#include "host/apps/McpApps.hpp"
#include "host/chat/ChatEvents.hpp"
#include "host/chat/ChatSession.hpp"
#include "host/coordinator/McpCoordinator.hpp"
#include "host/store/ChatStore.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace mcpkit::host {

enum class ToolCaller { model, hand, view };

struct ToolRunResult {
    ToolOutcome outcome;
    /// Why the call did not run (the user declined, did not answer, or its arguments were not
    /// JSON); empty when it ran.
    std::string refusal;
    /// The MCP App view shown with the result, or null.
    boost::json::value app;
    /// The arguments the user changed the call's to before allowing it (the model is told).
    std::optional<boost::json::object> edited_arguments;
};

/// Where a standing approval holds: this conversation, or every one (kept across restarts).
enum class ApprovalScope { conversation, always };

struct ListedApproval {
    StandingApproval approval;
    ApprovalScope scope;
};

class ToolRunner {
public:
    ToolRunner(McpCoordinator& coordinator, ChatEvents& events, HostLog& log,
               std::chrono::milliseconds approval_timeout)
        : coordinator_(coordinator), events_(events), log_(log), approval_timeout_(approval_timeout) {}

    /// Views of MCP Apps for the calls that have one (none: results only).
    void set_apps(McpApps* apps) { apps_ = apps; }
    /// Where "always" approvals are kept across restarts; reads those kept already.
    void keep_approvals_in(ChatStore& store);
    /// The approvals that hold in `session`: its own, then the host's.
    std::vector<ListedApproval> standing_approvals(const ChatSession& session) const;
    /// Takes one back; whether there was one.
    bool revoke(ChatSession& session, const std::string& qualified_name, ApprovalScope scope);

    /// Runs `call` (which must outlive the run) for `caller` in `session`. `tool` is the registry's
    /// entry as the caller found it (null: no such tool, which the coordinator explains). Never
    /// throws for the tool's sake: a failure is an error result.
    boost::asio::awaitable<ToolRunResult> run(std::shared_ptr<ChatSession> session, ToolCaller caller,
                                              const ToolCall& call, std::shared_ptr<const RegisteredTool> tool);

private:
    /// Whether the user allows `call` (asking them when the tool needs it); when not, `refusal` says
    /// why; `edited` gets the arguments the user changed the call's to, if they did.
    boost::asio::awaitable<bool> approved(ChatSession& session, const ToolCall& call, const RegisteredTool& tool,
                                          std::string& refusal, std::optional<boost::json::object>& edited);

    McpCoordinator& coordinator_;
    ChatEvents& events_;
    HostLog& log_;
    std::chrono::milliseconds approval_timeout_;
    McpApps* apps_ = nullptr;
    /// "Always": every conversation's, kept in the store.
    StandingApprovals always_;
    ChatStore* store_ = nullptr;
};

}  // namespace mcpkit::host
