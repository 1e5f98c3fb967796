#pragma once
// An MCP client: the mirror of mcp::Server, for the host and the CLI. It connects over any
// transport, speaks either protocol era, answers the server's requests (sampling, elicitation,
// roots) through callbacks, and reports notifications.
//
//   mcp::Client client({.info = {"my-host", "1.0"}});
//   co_await client.connect(mcp::ChildProcessTransport::spawn(executor, {.command = "server"}));
//   auto tools = co_await client.list_tools();
//   auto result = co_await client.call_tool("echo", {{"text", "hi"}});
//   co_await client.close();
//
// Errors: a JSON-RPC error answer, a timeout or a closed connection throws mcp::Error with the
// code (local codes in jsonrpc/ErrorCodes.hpp). Tool failures are results with is_error set.
// Threading: use a Client from its transport's executor only.

#include "mcp/Export.hpp"
#include "mcp/Cancellation.hpp"
#include "mcp/Version.hpp"
#include "mcp/client/TypedCalls.hpp"
#include "mcp/protocol/Implementation.hpp"
#include "mcp/protocol/Prompt.hpp"
#include "mcp/protocol/Resource.hpp"
#include "mcp/protocol/Tool.hpp"
#include "mcp/transport/Transport.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <any>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

namespace detail {
class ClientSession;
}

/// A directory or file the client lets servers work in, offered through roots/list.
struct MCP_API Root {
    std::string uri;  ///< Where it is, a file:// URI.
    std::optional<std::string> name;  ///< A name for people.
};

/// Why the server asks, as far as the client can tell: a server asks for sampling or elicitation
/// while it serves one of the client's requests (a tool call), and a host with several
/// conversations on one server must put the question to the one that made the call.
struct MCP_API ServerRequestContext {
    /// RequestOptions::caller of the client's request the server asks on behalf of; empty when
    /// that is not known (stdio, or a server that asks on its standalone stream). Known when the
    /// question comes on that request's Streamable HTTP response stream, in its input_required
    /// answer (2026-07-28), or while its task is polled.
    std::any caller;
};

/// A handler for a request from the server: gets its params, returns its result object.
/// Throw mcp::Error to answer with an error (e.g. the user declined in a way the spec treats as one).
using ClientRequestHandler = std::function<boost::asio::awaitable<boost::json::object>(
    const boost::json::object& params, const ServerRequestContext& context)>;

/// Who the client is, which protocol era it speaks, and how it answers the server's requests.
struct MCP_API ClientOptions {
    Implementation info{"mcpkit", MCP_VERSION_STRING};  ///< The clientInfo sent to the server.
    /// "2025-11-25" (or any earlier stateful revision), "2026-07-28", or "auto": try 2026-07-28
    /// through server/discover and fall back to initialize.
    std::string protocol_version = "2025-11-25";
    /// Default timeout of each request. Zero: none.
    std::chrono::milliseconds request_timeout{std::chrono::seconds(60)};
    /// Timeout of the handshake's request (initialize, or server/discover); default
    /// request_timeout. Longer when the first request may wait for a person to sign in.
    std::optional<std::chrono::milliseconds> connect_timeout;
    /// Setting a handler declares the matching capability.
    ClientRequestHandler on_sampling;
    /// Answers elicitation/create (asking the user); setting it declares the elicitation
    /// capability.
    ClientRequestHandler on_elicitation;
    /// The roots to offer; setting it declares the roots capability.
    std::optional<std::vector<Root>> roots;
    /// Extra capabilities to declare (merged over the ones derived from the handlers).
    boost::json::object capabilities;
    /// Every notification from the server (logging, list_changed, resources/updated, …).
    std::function<void(std::string_view method, const boost::json::value& params)> on_notification;
    /// How many input_required rounds one call may take before failing (2026-07-28).
    int max_input_rounds = 8;
    /// Let tool calls run as tasks where the server allows it (a long call then survives as a
    /// task the client polls): declares the io.modelcontextprotocol/tasks extension (2026-07-28),
    /// or asks for a task when calling a tool whose taskSupport is optional or required
    /// (2025-11-25, as learnt from list_tools). call_tool follows the task to its end and answers
    /// its questions with the handlers above, so callers see an ordinary result.
    bool tasks = false;
    /// The most one list (list_tools, list_resources, … over all their pages) may hold in memory,
    /// measured as its strings plus a JSON node's size per value. A longer list fails with an
    /// mcp::Error rather than let a broken or hostile server grow the client without bound.
    std::size_t max_list_bytes = std::size_t{64} << 20;
    /// Where the client reports what it ignored (e.g. a tool it cannot call). Default: nothing.
    std::function<void(std::string_view)> log;
};

/// A task's progress, as call_tool sees it while it polls.
struct MCP_API TaskUpdate {
    std::string task_id;  ///< The task's id, as the server gave it.
    std::string status;  ///< working, input_required, completed, failed, cancelled
    std::string message;  ///< The server's statusMessage, if any.
};

/// Per-call settings: timeout, cancellation, progress, tasks and who is calling.
struct MCP_API RequestOptions {
    /// Overrides ClientOptions::request_timeout for this call; zero means none.
    std::optional<std::chrono::milliseconds> timeout;
    /// Cancels the call (the server is sent notifications/cancelled); it then throws mcp::Error.
    CancellationToken cancellation;
    /// Asks the server for progress and receives it.
    std::function<void(double progress, std::optional<double> total, const std::string& message)> on_progress;
    /// Each progress notification restarts the timeout.
    bool reset_timeout_on_progress = true;
    /// When the call runs as a task (ClientOptions::tasks): each status it is seen in. The timeout
    /// applies to each poll, not to the task; cancelling the call cancels the task.
    std::function<void(const TaskUpdate&)> on_task;
    /// Who is calling, handed back to the sampling and elicitation handlers when the server asks
    /// on behalf of this request (ServerRequestContext::caller): a conversation's id, say.
    std::any caller;
};

/// An MCP client, the mirror of mcp::Server: connects over any transport, speaks either protocol era,
/// answers the server's requests through callbacks. Errors throw mcp::Error; tool failures are
/// results with is_error set. Use it from its transport's executor only.
class MCP_API Client {
public:
    /// A client that is not connected yet; see connect().
    explicit Client(ClientOptions options = {});
    /// Closes the connection if still open, without waiting.
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    /// Starts reading from `transport` and performs the handshake of the configured era.
    boost::asio::awaitable<void> connect(std::shared_ptr<Transport> transport);
    /// Closes the connection (for a child process: stdin, SIGTERM, SIGKILL).
    boost::asio::awaitable<void> close();

    /// Any request, raw. Adds the 2026-07-28 _meta when stateless and answers input_required
    /// results through the handlers. Returns the result object.
    boost::asio::awaitable<boost::json::object> request(std::string_view method, boost::json::object params = {},
                                                        RequestOptions options = {});
    /// Sends a notification (params left out when empty). Throws mcp::Error when not connected.
    void notify(std::string_view method, boost::json::object params = {});

    /// Sends ping and waits for the answer: a check that the server is alive. Revision 2026-07-28
    /// has no ping: a server speaking it (libmcp's does) answers with method not found, thrown as
    /// mcp::Error.
    boost::asio::awaitable<void> ping();
    /// Every tool (follows nextCursor).
    boost::asio::awaitable<std::vector<Tool>> list_tools();
    /// Calls a tool with JSON arguments. A call the server runs as a task is followed to its end, so
    /// the result is always the final one; a tool failure is a result with is_error set, not a throw.
    boost::asio::awaitable<CallToolResult> call_tool(std::string_view name, boost::json::object arguments = {},
                                                     RequestOptions options = {});
    /// A typed call: `arguments` is a described struct (or a JSON object); the result's
    /// structuredContent is read into `Out` (a described struct). A result with isError throws
    /// ToolError; one that does not fit `Out` throws JsonConversionError naming the field.
    /// With `Out` = CallToolResult, only the arguments are typed.
    template <class Out = CallToolResult, class In>
    boost::asio::awaitable<Out> call_tool(std::string_view name, const In& arguments, RequestOptions options = {}) {
        boost::json::object object = detail::arguments_object(arguments);
        CallToolResult result = co_await call_tool(name, std::move(object), std::move(options));
        if constexpr (std::is_same_v<Out, CallToolResult>) co_return result;
        else co_return from_json_value<Out>(detail::structured_result(name, result));
    }
    /// Every resource (follows nextCursor).
    boost::asio::awaitable<std::vector<Resource>> list_resources();
    /// Every resource template (follows nextCursor).
    boost::asio::awaitable<std::vector<ResourceTemplate>> list_resource_templates();
    /// resources/read: the contents at `uri` (several when the server returns several).
    boost::asio::awaitable<std::vector<ResourceContents>> read_resource(std::string_view uri);
    /// Asks to be told when the resource at `uri` changes (notifications/resources/updated, delivered
    /// to ClientOptions::on_notification).
    boost::asio::awaitable<void> subscribe_resource(std::string_view uri);
    /// Cancels a subscribe_resource.
    boost::asio::awaitable<void> unsubscribe_resource(std::string_view uri);
    /// Every prompt (follows nextCursor).
    boost::asio::awaitable<std::vector<Prompt>> list_prompts();
    /// prompts/get; `arguments` maps names to strings.
    boost::asio::awaitable<GetPromptResult> get_prompt(std::string_view name, boost::json::object arguments = {});
    /// prompts/get with a described struct of arguments (fields that are not strings are sent as
    /// the JSON they are, enums by name).
    template <class Args>
        requires detail::described_struct<Args>
    boost::asio::awaitable<GetPromptResult> get_prompt(std::string_view name, const Args& arguments) {
        co_return co_await get_prompt(name, detail::prompt_argument_strings(arguments));
    }
    /// completion/complete for a prompt argument ("ref/prompt", name) or template variable ("ref/resource", uri).
    boost::asio::awaitable<Completion> complete(std::string_view reference_type, std::string_view reference,
                                                std::string_view argument, std::string_view value);
    /// logging/setLevel: the least severe level ("debug" … "emergency") of log messages to receive.
    boost::asio::awaitable<void> set_logging_level(std::string_view level);
    /// Tells the server the roots changed (2025 era).
    void roots_changed(std::vector<Root> roots);

    /// The revision in use, once connected ("2025-11-25", "2026-07-28", …).
    const std::string& protocol_version() const;
    /// True when connected in 2026-07-28, with no session and per-request metadata.
    bool stateless() const;
    /// The capabilities the server declared.
    const boost::json::object& server_capabilities() const;
    /// The server's name and version, as it declared them.
    const Implementation& server_info() const;
    /// The server's guidance for the model on using it, if it gave any.
    const std::optional<std::string>& instructions() const;

private:
    boost::asio::awaitable<std::vector<boost::json::object>> list_all(std::string_view method, std::string_view key);
    /// Polls a task the server created for a call until it ends; its result (ClientTasks.cpp).
    boost::asio::awaitable<boost::json::object> follow_task(boost::json::object created, const RequestOptions& options);
    std::shared_ptr<detail::ClientSession> session_;
};

}  // namespace mcp
