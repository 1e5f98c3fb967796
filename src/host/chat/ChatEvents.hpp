#pragma once
// What a conversation reports as it goes: a turn starting and ending, the user's message, the
// answer's text, tool calls and their progress, questions for the user, token usage. chat/ calls
// this and builds no page frames; web/PageFrames implements it for the pages (the frames of
// docs/host-websocket.md), and tests record it.

#include "host/history/ChatMessage.hpp"
#include "host/history/TokenUsage.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcpkit::host {

class ChatSession;

enum class TurnState { started, finished, stopped, failed };
std::string_view turn_state_name(TurnState state);

/// A tool call as its card shows it.
struct ToolCard {
    std::string call_id;
    std::string tool;    ///< the qualified name (server__tool)
    std::string server;  ///< empty when no server has the tool
    std::string turn_id; ///< empty for a call made outside a turn (an app's view)
};

/// How a tool call ended.
struct ToolEnding {
    const boost::json::object& result;  ///< the MCP CallToolResult (or the host's refusal as one)
    bool is_error = false;
    std::chrono::milliseconds duration{0};
    std::string message;        ///< "Done", "The call failed", "Called by the app's view"
    const boost::json::value& app;  ///< the MCP App view shown with it, or null
    bool refused = false;           ///< not run: the user declined it, or the host refused it
};

/// The user is asked to allow a tool call.
struct ApprovalQuestion {
    std::string call_id;
    std::string tool;
    std::string server;
    boost::json::object arguments;
    std::string description;
    /// The user allowed the tool always, and its server has redefined it since: what changed.
    std::vector<std::string> changed;
    std::string previous_description;
};

/// A server asks the model, through the user (sampling/createMessage).
struct SamplingQuestion {
    std::string request_id;
    std::string server;
    boost::json::object params;  ///< the request's params (messages, systemPrompt, maxTokens)
};

/// A server asks the user (elicitation/create).
struct ElicitationQuestion {
    std::string request_id;
    std::string server;
    std::string message;
    std::string mode;  ///< "form" or "url"
    std::optional<boost::json::value> requested_schema;
    std::optional<boost::json::value> url;
};

/// How a turn ended, beyond its state: a failure in plain words with its technical side, or the
/// stated reason an answer ended short (an output limit, a content filter, a refusal).
struct TurnEnd {
    std::string message;  ///< failed: what went wrong and what to do
    std::string details;  ///< failed: the provider's status and message, shown folded
    std::string notice;   ///< finished: why the answer ended before the model meant it to
};

/// A failed request to the model that is about to be tried again.
struct RetryNotice {
    int attempt = 0;   ///< the attempt about to be made (2 for the first retry)
    int attempts = 0;  ///< how many there will be at most
    std::chrono::milliseconds delay{0};
    std::string reason;  ///< the failure, in plain words
};

using Question = std::variant<ApprovalQuestion, SamplingQuestion, ElicitationQuestion>;
/// The id the answer names (callId or requestId).
const std::string& question_id(const Question& question);

class ChatEvents {
public:
    virtual ~ChatEvents() = default;

    virtual void turn(ChatSession& session, TurnState state, const std::string& turn_id, const TurnEnd& end) = 0;
    /// The history changed other than by a message added (an edit, an answer asked again, an
    /// earlier version brought back): pages show it anew.
    virtual void history_changed(ChatSession& session) = 0;
    /// The user's message of a turn, as recorded (other tabs show it).
    virtual void user_message(ChatSession& session, const std::string& turn_id, const ChatMessage& message) = 0;
    /// A piece of the answer `message_id`, as it arrives.
    virtual void text(ChatSession& session, const std::string& turn_id, const std::string& message_id,
                      std::string_view piece) = 0;
    /// A piece of the model's reasoning for the answer `message_id` (shown folded).
    virtual void reasoning(ChatSession& session, const std::string& turn_id, const std::string& message_id,
                           std::string_view piece) = 0;
    /// The model's answer failed and is tried again after `notice.delay`.
    virtual void retrying(ChatSession& session, const std::string& turn_id, const RetryNotice& notice) = 0;
    virtual void tool_started(ChatSession& session, const ToolCard& card, const boost::json::object& arguments) = 0;
    virtual void tool_progress(ChatSession& session, const std::string& call_id, double progress,
                               std::optional<double> total, const std::string& message) = 0;
    /// The call runs as an MCP task on its server: its id and each status it is seen in.
    virtual void tool_task(ChatSession& session, const std::string& call_id, const std::string& task_id,
                           const std::string& status, const std::string& message) = 0;
    virtual void tool_finished(ChatSession& session, const ToolCard& card, const ToolEnding& ending) = 0;
    virtual void question_opened(ChatSession& session, const Question& question) = 0;
    /// `reason`: answered, expired, stopped.
    virtual void question_closed(ChatSession& session, const std::string& id, std::string_view reason) = 0;
    /// The session's running total.
    virtual void usage(ChatSession& session, const TokenUsage& total) = 0;
    /// What was reported so far goes out now rather than at the end of the tick (streamed text,
    /// where the latency shows).
    virtual void flush(ChatSession& session) = 0;
};

}  // namespace mcpkit::host
