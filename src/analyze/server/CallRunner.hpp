#pragma once
// Runs one tool call through the state machine, inside its session if it names one, and wraps
// whatever the tool produced (or why it failed) in the response envelope.

#include "analyze/server/ResponseEnvelope.hpp"
#include "analyze/server/SessionStore.hpp"
#include "analyze/server/ToolExecution.hpp"

#include <mcp/server/RequestContext.hpp>
#include <mcp/server/Server.hpp>

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>

namespace mcpkit::analyze {

/// A failure the caller can act on: the envelope carries `code` and the message.
struct ToolError : std::runtime_error {
    ToolError(int code, const std::string& message) : std::runtime_error(message), code(code) {}
    int code;
};

struct ToolOutput {
    boost::json::value data;
    std::string text;     ///< the readable rendering
    std::string subject;  ///< the path or project the call was about (relates results)
    std::string summary;  ///< one line for the session history
};

/// What a tool body may use while it runs.
struct CallControl {
    const std::atomic<bool>* cancelled;
    std::function<void(double done, double total, std::string message)> progress;
    std::string owner;  ///< who calls, as Session::owner names it
};

/// Who makes `call`, as Session::owner names it.
std::string owner_of(const mcp::ToolCall& call);

using ToolBody = std::function<ToolOutput(const boost::json::object& arguments, CallControl& control)>;

struct SessionPolicy {
    std::size_t max_history = 50;           ///< calls kept per session
    std::size_t max_result_bytes = 256 << 10; ///< larger results keep only their summary
    std::int64_t default_ttl_seconds = 3600;
    std::size_t max_sessions_per_owner = 1000;  ///< live sessions one owner may hold
};

class CallRunner {
public:
    CallRunner(SessionStore& store, SessionPolicy policy) : store_(store), policy_(policy) {}

    /// `recorded`: the call joins the session its sessionId names (analysis tools); the session tools
    /// take sessionId as their subject instead.
    mcp::CallToolResult run(const std::string& tool, mcp::ToolCall& call, const ToolBody& body, bool recorded = true);

    /// The envelope for arguments that break the tool's inputSchema (libmcp's validator found it
    /// before any handler ran): code 400, the validator's message naming the field.
    /// When `recorded` and the arguments name a live session, the refusal joins its history.
    mcp::CallToolResult refuse_arguments(const std::string& tool, const boost::json::object& arguments,
                                         const std::string& problem, bool recorded);
    /// ToolOptions for a tool of this runner: failures of schema validation answer as envelopes.
    /// `recorded` as for run().
    mcp::ToolOptions tool_options(const std::string& tool, bool blocking, bool recorded);

    SessionStore& store() { return store_; }
    const SessionPolicy& policy() const { return policy_; }

private:
    /// Appends the call to the session's bounded history and saves it; fills in the envelope's
    /// resultId and relatedResults.
    void record_call(Session& session, Envelope& envelope, const boost::json::object& arguments,
                     const std::string& subject, const std::string& summary, const std::string& error);

    SessionStore& store_;
    SessionPolicy policy_;
    std::atomic<std::uint64_t> anonymous_calls_{0};
};

/// Reads an optional string argument; throws ToolError(400) naming the field when it is not a string.
std::optional<std::string> optional_string(const boost::json::object& arguments, std::string_view key);
std::string required_string(const boost::json::object& arguments, std::string_view key, std::string_view hint);

}  // namespace mcpkit::analyze
