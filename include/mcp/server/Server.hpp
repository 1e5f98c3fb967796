#pragma once
// An MCP server: register tools, resources, templates, prompts and completions, then serve any
// number of connections over any transport. Both protocol eras are served, per connection
// (initialize) or per request (2026-07-28 _meta).
//
//   struct EchoArgs { std::string text; };
//   BOOST_DESCRIBE_STRUCT(EchoArgs, (), (text))
//
//   mcp::Server server({.name = "demo", .version = "1.0.0"});
//   server.add_tool("echo", "Echoes text", [](const EchoArgs& args) { return args.text; });
//   mcp::serve_stdio(server);
//
// Registration happens on one thread: before serving, or on the server's I/O thread while serving
// (clients are then told the list changed). Registration errors (duplicate or invalid names,
// unusable schemas) throw std::invalid_argument at once.

#include "mcp/Export.hpp"
#include "mcp/protocol/Implementation.hpp"
#include "mcp/protocol/Prompt.hpp"
#include "mcp/protocol/Resource.hpp"
#include "mcp/protocol/Tool.hpp"
#include "mcp/server/Handler.hpp"
#include "mcp/server/RequestContext.hpp"
#include "mcp/server/TypedHandlers.hpp"
#include "mcp/store/TaskStore.hpp"
#include "mcp/transport/StreamTransport.hpp"
#include "mcp/transport/Transport.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace mcp {

namespace detail {
struct ServerState;
class ServerSession;
}  // namespace detail

/// How long a 2026-07-28 client may cache a result, and who may share the cached copy (sent as
/// "ttlMs" and "cacheScope").
struct MCP_API CacheHint {
    std::int64_t ttl_ms = 0;  ///< Milliseconds the result stays fresh; 0 (the default) means do not reuse it.
    std::string scope = "private";  ///< "public" or "private"
};

/// Settings for a Server; every member has a usable default.
struct MCP_API ServerOptions {
    /// Guidance for the model on using this server, sent as "instructions" at initialize and
    /// discovery.
    std::optional<std::string> instructions;
    /// Items per page of tools/list, resources/list, … Zero: everything in one page.
    std::size_t page_size = 0;
    /// Threads for handlers registered as blocking. Default 2.
    std::size_t worker_threads = 2;
    /// Timeout of requests the server sends to the client (sampling, elicitation, roots). Default 5 min,
    /// because a person may be answering.
    std::chrono::milliseconds client_request_timeout{std::chrono::minutes(5)};
    /// Requests of one client session that may run at once; past it a request is refused with
    /// jsonrpc::error_code::too_many_requests (answers that need no waiting do not count).
    std::size_t max_requests_in_flight = 256;
    /// The 2026-07-28 cache hint on list results and server/discover.
    CacheHint list_cache;
    CacheHint read_cache;  ///< The hint for resources/read results (`list_cache` is for lists and discovery).
    /// How many times a handler may ask for input in one 2025-era call before the call fails.
    int max_input_rounds = 8;
    /// How long a finished task is kept for tasks/get (counted from its creation).
    std::chrono::milliseconds task_ttl{std::chrono::hours(1)};
    /// The interval between tasks/get polls suggested to clients.
    std::chrono::milliseconds task_poll_interval{std::chrono::milliseconds(500)};
    /// Tasks held at once (running and finished): beyond, a call that would become one is refused.
    std::size_t max_tasks = 10000;
    /// Behind an authorizer that tells users apart (OAuth): tasks one user (token issuer and
    /// subject) may hold at once, so one user cannot take all of max_tasks from the others.
    std::size_t max_tasks_per_owner = 1000;
    /// Called for notifications/roots/list_changed from a 2025-era client.
    std::function<void()> on_roots_list_changed;
    /// Where the server reports what it could not do (bad input, failed handlers). Default: nothing.
    std::function<void(std::string_view)> log;
};

/// Builds a tool's answer to arguments that break its inputSchema, from the arguments as they came
/// (an empty object when they were not one) and the validator's message (it names the field).
/// Return an error result (CallToolResult::error or isError set).
using InvalidArgumentsHandler =
    std::function<CallToolResult(const boost::json::object& arguments, const std::string& problem)>;

/// Whether a tool's calls may run as tasks: the client gets a task id at once and polls for the
/// result (tasks/get), answers the tool's questions meanwhile, and may cancel it. Protocol
/// 2026-07-28 with the io.modelcontextprotocol/tasks extension, and 2025-11-25's experimental
/// tasks (see docs/tasks.md).
enum class TaskSupport {
    forbidden,  ///< never a task (the default)
    optional,   ///< a task when the client can do tasks, an ordinary call otherwise
    required,   ///< only as a task: a client that cannot do tasks is refused
};

/// How one tool's calls are run and answered; passed to Server::add_tool.
struct MCP_API ToolOptions {
    /// Run this (plain-function) handler on the worker pool.
    bool blocking = false;
    TaskSupport task_support = TaskSupport::forbidden;  ///< Whether calls may or must run as tasks.
    /// With task support: the handler's first questions are asked before the task exists (2026
    /// multi-round requests); the task starts with the call that brings the answers.
    bool input_before_task = false;
    /// Answer bad arguments in the tool's own form (a tool whose results share a structured
    /// envelope, say). Default: an isError text "Invalid arguments for tool NAME: PROBLEM".
    InvalidArgumentsHandler on_invalid_arguments;
};

/// A JSON Schema for an object with these properties; `required` lists the mandatory ones.
MCP_API boost::json::object schema_object(boost::json::object properties, std::initializer_list<std::string_view> required = {},
                                  bool allow_additional = true);

/// What OAuth scopes can guard (Server::require_scopes).
enum class ScopedItem { tool, prompt, resource };

/// An MCP server: holds the registered tools, resources, templates, prompts and completions, and
/// serves any number of connections over any transport, in both protocol eras.
class MCP_API Server {
public:
    /// A server that introduces itself as `info` (its serverInfo) to every client.
    explicit Server(Implementation info, ServerOptions options = {});
    /// Waits for handlers still running on the worker pool.
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    /// A tool. `handler` takes `ToolCall&` (untyped: arguments as JSON, the schema in `tool`), or a
    /// described struct (typed, see TypedHandlers.hpp: the schemas are generated from the types).
    template <class F>
    Server& add_tool(Tool tool, F handler, ToolOptions options = {}) {
        if constexpr (std::is_invocable_v<F&, ToolCall&>) {
            // A plain, non-blocking handler also gets an inline form: most calls then need no coroutine.
            auto immediate = detail::immediate_handler<CallToolResult, ToolCall>(handler, options.blocking);
            return add_tool_handler(std::move(tool),
                                    detail::adapt_handler<CallToolResult, ToolCall>(
                                        std::move(handler), options.blocking ? &worker_pool() : nullptr),
                                    std::move(immediate), std::move(options.on_invalid_arguments),
                                    options.task_support, options.input_before_task);
        } else {
            auto untyped = detail::typed_tool(tool, std::move(handler));
            return add_tool(std::move(tool), std::move(untyped), std::move(options));
        }
    }
    /// A typed tool by name and description: `server.add_tool("get_weather", "…", [](const WeatherArgs& a) { … })`.
    template <class F>
    Server& add_tool(std::string name, std::string description, F handler, ToolOptions options = {}) {
        Tool tool;
        tool.name = std::move(name);
        tool.description = std::move(description);
        return add_tool(std::move(tool), std::move(handler), std::move(options));
    }
    /// A fixed resource read by `handler`, which takes `ResourceRead&` and returns a ReadResourceResult
    /// (or InputRequired, or an awaitable of them); it runs on the I/O thread, so must not block.
    /// Throws std::invalid_argument without a uri and a name, or when the URI is taken.
    template <class F>
    Server& add_resource(Resource resource, F handler) {
        return add_resource_handler(std::move(resource),
                                    detail::adapt_handler<ReadResourceResult, ResourceRead>(std::move(handler), nullptr));
    }
    /// A family of resources: URIs matching `resource_template` are read by `handler`, which finds the
    /// template's variables in ResourceRead::variables. Runs on the I/O thread, like add_resource.
    template <class F>
    Server& add_resource_template(ResourceTemplate resource_template, F handler) {
        return add_template_handler(
            std::move(resource_template),
            detail::adapt_handler<ReadResourceResult, ResourceRead>(std::move(handler), nullptr));
    }
    /// A prompt. `handler` takes `PromptGet&` (untyped: arguments as strings), or a described
    /// struct (typed: the prompt's arguments are generated from its fields).
    template <class F>
    Server& add_prompt(Prompt prompt, F handler) {
        if constexpr (std::is_invocable_v<F&, PromptGet&>) {
            return add_prompt_handler(std::move(prompt),
                                      detail::adapt_handler<GetPromptResult, PromptGet>(std::move(handler), nullptr));
        } else {
            auto untyped = detail::typed_prompt(prompt, std::move(handler));
            return add_prompt(std::move(prompt), std::move(untyped));
        }
    }
    /// A typed prompt by name and description.
    template <class F>
    Server& add_prompt(std::string name, std::string description, F handler) {
        Prompt prompt;
        prompt.name = std::move(name);
        prompt.description = std::move(description);
        return add_prompt(std::move(prompt), std::move(handler));
    }
    /// Completions for a prompt's arguments ("ref/prompt", name) or a template's variables
    /// ("ref/resource", uri template).
    template <class F>
    Server& add_completion(std::string reference_type, std::string reference, F handler) {
        return add_completion_handler(
            std::move(reference_type), std::move(reference),
            detail::adapt_handler<Completion, CompletionRequest>(std::move(handler), nullptr));
    }

    /// Unregisters a tool and tells clients the list changed; false when there was none by that name.
    bool remove_tool(std::string_view name);
    /// Unregisters a prompt and tells clients the list changed; false when there was none by that name.
    bool remove_prompt(std::string_view name);
    /// Unregisters a fixed resource (not a template) and tells clients the list changed; false when
    /// there was none with that URI.
    bool remove_resource(std::string_view uri);

    /// Tells subscribers (resources/subscribe, subscriptions/listen) that a resource changed.
    void notify_resource_updated(std::string_view uri);

    /// Serves one connection until it ends. Many may run at once on the same server.
    boost::asio::awaitable<void> serve(std::shared_ptr<Transport> transport);

    /// The registered tool called `name`, or nullptr. Valid until tools change; use on the server's thread.
    const Tool* find_tool(std::string_view name) const;

    /// Shares the tasks with other instances through `store` (the same Redis as the session
    /// store): a task started on one instance can be polled, answered and cancelled through any.
    /// Call before serving.
    Server& set_task_store(std::shared_ptr<TaskStore> store);

    /// Over HTTP behind an authorization server (StreamableHttpServerOptions::authorization), a
    /// request for this tool, prompt or resource (by URI) needs these scopes besides those every
    /// request needs: a token without them gets 403 insufficient_scope, and the item is left out of
    /// its list for that token. Transports that carry no token (stdio) are not restricted.
    Server& require_scopes(ScopedItem item, std::string name, std::vector<std::string> scopes);
    /// The scopes tools/call, prompts/get or resources/read with these params needs; empty for
    /// none (and for any other method). Use on the server's thread.
    std::vector<std::string> required_scopes(std::string_view method, const boost::json::object& params) const;

    /// The serverInfo given at construction.
    const Implementation& info() const;
    /// The options given at construction.
    const ServerOptions& options() const;
    /// The pool blocking handlers run on, made on first use with ServerOptions::worker_threads threads.
    boost::asio::thread_pool& worker_pool();

    /// What add_tool reduces to: a tool whose handler already has the server's shape. `immediate`, when
    /// given, answers calls inline without a coroutine (it is dropped for tools that may run as tasks).
    /// Throws std::invalid_argument for a bad or taken name, an inputSchema whose type is not "object",
    /// or a schema that does not compile.
    Server& add_tool_handler(Tool tool, Handler<CallToolResult, ToolCall> handler,
                             ImmediateHandler<CallToolResult, ToolCall> immediate = {},
                             InvalidArgumentsHandler on_invalid_arguments = {},
                             TaskSupport task_support = TaskSupport::forbidden, bool input_before_task = false);
    /// What add_resource reduces to, for a handler that already has the server's shape.
    Server& add_resource_handler(Resource resource, Handler<ReadResourceResult, ResourceRead> handler);
    /// What add_resource_template reduces to, for a handler that already has the server's shape.
    Server& add_template_handler(ResourceTemplate resource_template, Handler<ReadResourceResult, ResourceRead> handler);
    /// What add_prompt reduces to, for a handler that already has the server's shape. Throws
    /// std::invalid_argument without a name or when the name is taken.
    Server& add_prompt_handler(Prompt prompt, Handler<GetPromptResult, PromptGet> handler);
    /// What add_completion reduces to; replaces an earlier completer for the same reference. Throws
    /// std::invalid_argument unless `reference_type` is "ref/prompt" or "ref/resource".
    Server& add_completion_handler(std::string reference_type, std::string reference,
                                   Handler<Completion, CompletionRequest> handler);

private:
    std::shared_ptr<detail::ServerState> state_;
};

/// Serves `server` on this process's stdin/stdout until stdin closes, running `io` (which the
/// server's own timers may also use). SIGINT/SIGTERM end it cleanly. Returns the exit code.
MCP_API int serve_stdio(Server& server, boost::asio::io_context& io, StreamTransportOptions stream = {});
/// As above, on an io_context of its own with the default stream options.
MCP_API int serve_stdio(Server& server);

}  // namespace mcp
