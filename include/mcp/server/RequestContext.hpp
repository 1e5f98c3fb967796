#pragma once
// Everything a handler may know or do while serving one request: who the client is, progress and
// log notifications tied to this request, cancellation, and (2025 era) requests back to the client.
//
// A context lives as long as its handler runs. Notifications may be sent from any thread (blocking
// handlers run on the worker pool); the coroutine calls to the client must run on the I/O thread,
// which is where coroutine handlers run.

#include "mcp/Export.hpp"
#include "mcp/Cancellation.hpp"
#include "mcp/auth/AccessToken.hpp"
#include "mcp/jsonrpc/RequestId.hpp"
#include "mcp/protocol/Implementation.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

namespace mcp {

namespace detail {
class ServerSession;
}

/// The severity of a log message, the syslog levels of RFC 5424 from least to most severe; a client's
/// logging/setLevel lets through its level and those above.
enum class LoggingLevel { debug, info, notice, warning, error, critical, alert, emergency };
/// The level's name as the protocol spells it: "debug", "info", …, "emergency".
MCP_API std::string_view to_string(LoggingLevel level);
/// The level named `text` ("warning"), or nothing for a name that is not a level.
MCP_API std::optional<LoggingLevel> parse_logging_level(std::string_view text);

/// What a handler may know or do while serving one request: the client, progress and log
/// notifications, cancellation, and requests back to the client. Lives as long as its handler runs;
/// notifications may be sent from any thread, the coroutine calls only on the I/O thread.
class MCP_API RequestContext {
public:
    /// Made by the server for each request it serves; `params` must outlive the context.
    RequestContext(std::shared_ptr<detail::ServerSession> session, jsonrpc::RequestId id, std::string method,
                   const boost::json::object& params, CancellationToken cancellation);
    /// Defined out of line, where detail::ServerSession is complete.
    ~RequestContext();

    /// The JSON-RPC id of the request being served.
    const jsonrpc::RequestId& request_id() const { return id_; }
    /// The method being served, e.g. "tools/call".
    const std::string& method() const { return method_; }
    /// The request's params (including _meta), as sent.
    const boost::json::object& params() const { return *params_; }

    /// The revision this request is served under ("2025-11-25", "2026-07-28", …).
    const std::string& protocol_version() const { return protocol_version_; }
    /// True under 2026-07-28, where there is no session and every request carries its own metadata.
    bool stateless() const;
    /// The capabilities the client declared (at initialize, or in this request's metadata in 2026-07-28).
    const boost::json::object& client_capabilities() const { return *client_capabilities_; }
    /// Whether the client declared `capability` ("sampling", "elicitation", "roots", …).
    bool client_supports(std::string_view capability) const { return client_capabilities_->contains(capability); }
    /// The client's name and version, as it declared them.
    const Implementation& client_info() const { return *client_info_; }

    /// True once the client cancelled the request or the connection ended; a long handler should poll
    /// this and give up.
    bool cancelled() const { return cancellation_.cancelled(); }
    /// The request's cancellation token, to register a callback or to hand to other work.
    const CancellationToken& cancellation() const { return cancellation_; }

    /// Sends notifications/progress if the client asked for progress (a progressToken); else, or
    /// once the request is cancelled, nothing.
    void progress(double progress, std::optional<double> total = std::nullopt,
                  std::optional<std::string> message = std::nullopt) const;
    /// Whether the client sent a progressToken, so progress() will send anything.
    bool wants_progress() const { return !progress_token_.is_null(); }
    /// Sends notifications/message if the client's log level lets it through (and nothing once the
    /// request is cancelled).
    void log(LoggingLevel level, std::string_view message) const { log_data(level, boost::json::value(message)); }
    /// The same with any JSON as the message's data, and an optional logger name.
    void log_data(LoggingLevel level, boost::json::value data, std::optional<std::string> logger = std::nullopt) const;

    /// The client's answer to input request `key` of an earlier round, or nullptr.
    const boost::json::value* input_response(std::string_view key) const;
    /// All the client's answers of an earlier round, keyed by input request, or nullptr in the first round.
    const boost::json::object* input_responses() const { return input_responses_ ? &*input_responses_ : nullptr; }
    /// The requestState the client echoed, if any.
    const std::optional<std::string>& request_state() const { return request_state_; }

    /// The task this call runs as ("" when it is an ordinary call).
    const std::string& task_id() const { return task_id_; }

    /// The verified OAuth access token the request came with (over HTTP behind an authorization
    /// server), or nullptr.
    const auth::AccessToken* access_token() const { return auth::access_token_of(origin_.get()); }

    /// Over Streamable HTTP: ends the SSE stream carrying this request without ending the request
    /// (SSE polling). The client reconnects after the stream's retry interval and receives the rest,
    /// the result included. Other transports ignore it.
    void close_stream() const;

    /// 2025 era only: a request to the client on this request's behalf (sampling, elicitation,
    /// roots). Throws mcp::Error when the client lacks the capability, is stateless, or answers
    /// with an error.
    boost::asio::awaitable<boost::json::value> request_client(std::string_view method, boost::json::object params) const;

private:
    friend class detail::ServerSession;
    std::shared_ptr<detail::ServerSession> session_;
    jsonrpc::RequestId id_;
    std::string method_;
    const boost::json::object* params_;  ///< re-pointed if the request moves (see ServerSession)
    CancellationToken cancellation_;
    std::shared_ptr<const jsonrpc::MessageOrigin> origin_;
    std::string task_id_;
    std::string protocol_version_;
    // Owned by the session (2025 era) or by the request's own handling (2026): both outlive this.
    const boost::json::object* client_capabilities_ = nullptr;
    const Implementation* client_info_ = nullptr;
    std::optional<LoggingLevel> log_level_;  ///< messages below it are dropped; none = drop all (2026)
    bool log_everything_ = false;            ///< 2025 era before logging/setLevel
    boost::json::value progress_token_;
    std::optional<boost::json::object> input_responses_;
    std::optional<std::string> request_state_;
};

/// A tools/call in progress.
struct MCP_API ToolCall : RequestContext {
    using RequestContext::RequestContext;
    std::string name;  ///< The name of the tool called.
    /// The call's arguments, already checked against the tool's input schema; empty when none were
    /// sent.
    boost::json::object arguments;
};

/// A resources/read in progress; `variables` holds the template's matches.
struct MCP_API ResourceRead : RequestContext {
    using RequestContext::RequestContext;
    std::string uri;  ///< The URI being read.
    /// The URI template's variables and the values the URI gave them; empty for a fixed resource.
    std::unordered_map<std::string, std::string> variables;
};

/// A prompts/get in progress.
struct MCP_API PromptGet : RequestContext {
    using RequestContext::RequestContext;
    std::string name;  ///< The name of the prompt asked for.
    /// The prompt's arguments; required ones have been checked to be present.
    std::unordered_map<std::string, std::string> arguments;
};

/// A completion/complete in progress.
struct MCP_API CompletionRequest : RequestContext {
    using RequestContext::RequestContext;
    std::string reference_type;  ///< "ref/prompt" or "ref/resource"
    std::string reference;       ///< the prompt name or the URI template
    std::string argument;  ///< The name of the argument or template variable being completed.
    std::string value;  ///< What the user has typed of it so far.
    /// Values already given for the other arguments, when the client sent them.
    std::unordered_map<std::string, std::string> context_arguments;
};

}  // namespace mcp
