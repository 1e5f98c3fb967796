#pragma once
// Everything a handler may know or do while serving one request: who the client is, progress and
// log notifications tied to this request, cancellation, and (2025 era) requests back to the client.
//
// A context lives as long as its handler runs. Notifications may be sent from any thread (blocking
// handlers run on the worker pool); the coroutine calls to the client must run on the I/O thread,
// which is where coroutine handlers run.

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

enum class LoggingLevel { debug, info, notice, warning, error, critical, alert, emergency };
std::string_view to_string(LoggingLevel level);
std::optional<LoggingLevel> parse_logging_level(std::string_view text);

class RequestContext {
public:
    RequestContext(std::shared_ptr<detail::ServerSession> session, jsonrpc::RequestId id, std::string method,
                   const boost::json::object& params, CancellationToken cancellation);
    ~RequestContext();

    const jsonrpc::RequestId& request_id() const { return id_; }
    const std::string& method() const { return method_; }
    /// The request's params (including _meta), as sent.
    const boost::json::object& params() const { return *params_; }

    /// The revision this request is served under ("2025-11-25", "2026-07-28", …).
    const std::string& protocol_version() const { return protocol_version_; }
    bool stateless() const;
    const boost::json::object& client_capabilities() const { return *client_capabilities_; }
    bool client_supports(std::string_view capability) const { return client_capabilities_->contains(capability); }
    const Implementation& client_info() const { return *client_info_; }

    bool cancelled() const { return cancellation_.cancelled(); }
    const CancellationToken& cancellation() const { return cancellation_; }

    /// Sends notifications/progress if the client asked for progress (a progressToken); else nothing.
    void progress(double progress, std::optional<double> total = std::nullopt,
                  std::optional<std::string> message = std::nullopt) const;
    bool wants_progress() const { return !progress_token_.is_null(); }
    /// Sends notifications/message if the client's log level lets it through.
    void log(LoggingLevel level, std::string_view message) const { log_data(level, boost::json::value(message)); }
    /// The same with any JSON as the message's data, and an optional logger name.
    void log_data(LoggingLevel level, boost::json::value data, std::optional<std::string> logger = std::nullopt) const;

    /// The client's answer to input request `key` of an earlier round, or nullptr.
    const boost::json::value* input_response(std::string_view key) const;
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
struct ToolCall : RequestContext {
    using RequestContext::RequestContext;
    std::string name;
    boost::json::object arguments;
};

/// A resources/read in progress; `variables` holds the template's matches.
struct ResourceRead : RequestContext {
    using RequestContext::RequestContext;
    std::string uri;
    std::unordered_map<std::string, std::string> variables;
};

/// A prompts/get in progress.
struct PromptGet : RequestContext {
    using RequestContext::RequestContext;
    std::string name;
    std::unordered_map<std::string, std::string> arguments;
};

/// A completion/complete in progress.
struct CompletionRequest : RequestContext {
    using RequestContext::RequestContext;
    std::string reference_type;  ///< "ref/prompt" or "ref/resource"
    std::string reference;       ///< the prompt name or the URI template
    std::string argument;
    std::string value;
    std::unordered_map<std::string, std::string> context_arguments;
};

}  // namespace mcp
