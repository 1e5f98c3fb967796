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

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <memory>
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
};

class ToolRunner {
public:
    ToolRunner(McpCoordinator& coordinator, ChatEvents& events, HostLog& log,
               std::chrono::milliseconds approval_timeout)
        : coordinator_(coordinator), events_(events), log_(log), approval_timeout_(approval_timeout) {}

    /// Views of MCP Apps for the calls that have one (none: results only).
    void set_apps(McpApps* apps) { apps_ = apps; }

    /// Runs `call` (which must outlive the run) for `caller` in `session`. `tool` is the registry's
    /// entry as the caller found it (null: no such tool, which the coordinator explains). Never
    /// throws for the tool's sake: a failure is an error result.
    boost::asio::awaitable<ToolRunResult> run(std::shared_ptr<ChatSession> session, ToolCaller caller,
                                              const ToolCall& call, std::shared_ptr<const RegisteredTool> tool);

private:
    /// Whether the user allows `call` (asking them when the tool needs it); when not, `refusal` says why.
    boost::asio::awaitable<bool> approved(ChatSession& session, const ToolCall& call, const RegisteredTool& tool,
                                          std::string& refusal);

    McpCoordinator& coordinator_;
    ChatEvents& events_;
    HostLog& log_;
    std::chrono::milliseconds approval_timeout_;
    McpApps* apps_ = nullptr;
};

}  // namespace mcpkit::host
