#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// One client connection to a Server. It owns the lifecycle (initialize for the 2025 era,
// per-request _meta for 2026-07-28), answers each request under the right era's rules, and
// carries the per-connection state: negotiated version, client capabilities, log level,
// resource subscriptions and subscriptions/listen streams.

#include "mcp/jsonrpc/Connection.hpp"
#include "server/ServerState.hpp"

#include <set>

namespace mcp::detail {

/// What one request is served under: the connection's negotiated state (2025) or the request's
/// own _meta (2026-07-28).
struct PeerView {
    std::string version;
    bool stateless = false;
    boost::json::object client_capabilities;
    Implementation client_info;
    std::optional<LoggingLevel> log_level;
    bool log_everything = false;
};

/// An open subscriptions/listen stream.
struct ListenSubscription {
    jsonrpc::RequestId id;
    CancellationToken cancellation;  ///< once cancelled, nothing more may be sent for it
    bool tools_list_changed = false;
    bool prompts_list_changed = false;
    bool resources_list_changed = false;
    std::set<std::string> resource_uris;
};

/// The one place where a tool handler's exception becomes an answer; call it inside a catch
/// block (ServerTools.cpp).
boost::json::object tool_failure(ServerState& state, const std::string& name, const boost::json::object& arguments);

class ServerSession : public jsonrpc::Dispatcher, public std::enable_shared_from_this<ServerSession> {
public:
    explicit ServerSession(std::shared_ptr<ServerState> state) : state_(std::move(state)) {}

    void attach(const std::shared_ptr<jsonrpc::Connection>& connection) { connection_ = connection; }
    boost::asio::awaitable<jsonrpc::Reply> handle_request(jsonrpc::InboundRequest& request) override;
    std::optional<jsonrpc::Reply> try_handle_now(jsonrpc::InboundRequest& request) override;
    void handle_notification(jsonrpc::Notification& notification) override;
    void input_ended() override;

    // Change notifications from the server.
    void list_changed(ListKind kind);
    void resource_updated(std::string_view uri);

    // For RequestContext.
    void send_notification(std::string_view method, const boost::json::value& params,
                           const jsonrpc::RequestId* related) const;
    boost::asio::awaitable<jsonrpc::Response> call_client(std::string_view method, boost::json::object params,
                                                          const jsonrpc::RequestId& related,
                                                          const CancellationToken& cancellation) const;
    void close_request_stream(const jsonrpc::RequestId& id) const;
    const ServerState& state() const { return *state_; }

private:
    // The method table (ServerMethods.cpp): one row per method a client may call.
    struct Method;
    enum class Feature { none, tools, resources, prompts, completions, tasks };
    enum class CacheKind { none, list, read };
    static const Method* find_method(std::string_view name);
    static bool served_in_session_era(const Method& method);
    static bool served_statelessly(const Method& method);
    static bool allowed_before_initialize(const Method& method);
    bool offers(Feature feature) const;
    /// Runs a method from the table; throws mcp::Error for protocol errors.
    boost::asio::awaitable<boost::json::object> run_method(const Method& method, jsonrpc::InboundRequest& request,
                                                           const PeerView& peer);

    boost::asio::awaitable<jsonrpc::Reply> handle_stateless(jsonrpc::InboundRequest& request,
                                                            const boost::json::object& meta);
    boost::asio::awaitable<jsonrpc::Reply> handle_stateful(jsonrpc::InboundRequest& request);
    boost::json::object discover_result() const;

    // Methods that are not features. All table handlers share one signature.
    boost::asio::awaitable<boost::json::object> method_initialize(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_ping(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_set_level(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_subscribe(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_discover(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_list_tools(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_list_resources(jsonrpc::InboundRequest& request,
                                                                      const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_list_templates(jsonrpc::InboundRequest& request,
                                                                      const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_list_prompts(jsonrpc::InboundRequest& request,
                                                                    const PeerView& peer);
    boost::asio::awaitable<boost::json::object> listen(jsonrpc::InboundRequest& request, const PeerView& peer);

    // Tasks (ServerTasks.cpp).
    /// Whether this tools/call runs as a task; throws when the tool and the request disagree.
    bool runs_as_task(const ToolEntry& entry, const boost::json::object& params, const PeerView& peer) const;
    /// Creates the task, starts the handler in the background, and answers with the task.
    boost::asio::awaitable<boost::json::object> start_task(jsonrpc::InboundRequest& request, const PeerView& peer,
                                                           const ToolEntry& entry, boost::json::object arguments);
    boost::asio::awaitable<void> run_task(std::shared_ptr<ServerTask> task, Handler<CallToolResult, ToolCall> handler,
                                          std::shared_ptr<ToolCall> call,
                                          std::shared_ptr<SchemaValidator> output_validator, PeerView peer);
    boost::asio::awaitable<void> run_task_rounds(std::shared_ptr<ServerTask> task,
                                                 Handler<CallToolResult, ToolCall> handler,
                                                 std::shared_ptr<ToolCall> call,
                                                 std::shared_ptr<SchemaValidator> output_validator, PeerView peer);
    /// The answers to a task's questions: asked through the session (2025) or awaited from
    /// tasks/update (2026).
    boost::asio::awaitable<boost::json::object> gather_task_input(ServerTask& task, const InputRequired& input,
                                                                  const PeerView& peer);
    /// Picks up the answers and cancel requests other instances leave in the shared store.
    boost::asio::awaitable<void> watch_shared_requests(std::shared_ptr<ServerTask> task,
                                                       std::shared_ptr<TaskStore> store);
    /// The task a tasks/* request names; throws -32021 (2026 without the extension) or -32602.
    std::shared_ptr<ServerTask> task_for(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_tasks_get(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_tasks_update(jsonrpc::InboundRequest& request,
                                                                    const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_tasks_cancel(jsonrpc::InboundRequest& request,
                                                                    const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_tasks_result(jsonrpc::InboundRequest& request,
                                                                    const PeerView& peer);
    boost::asio::awaitable<boost::json::object> method_tasks_list(jsonrpc::InboundRequest& request, const PeerView& peer);

    // Features (ServerFeatures.cpp).
    boost::json::object list_tools(const boost::json::object& params, const jsonrpc::MessageOrigin* origin,
                                   bool stateless) const;
    boost::json::object list_resources(const boost::json::object& params, const jsonrpc::MessageOrigin* origin) const;
    boost::json::object list_templates(const boost::json::object& params) const;
    boost::json::object list_prompts(const boost::json::object& params, const jsonrpc::MessageOrigin* origin) const;
    std::function<bool(const std::string&)> visible_to(const jsonrpc::MessageOrigin* origin, ScopedItem item) const;
    boost::asio::awaitable<boost::json::object> call_tool(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> read_resource(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> get_prompt(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> complete(jsonrpc::InboundRequest& request, const PeerView& peer);

    /// Runs a handler; in the 2025 era, answers its input requests by asking the client and runs
    /// it again. Returns the final result, or the input request for a 2026 client. (HandlerRunner.hpp)
    template <class Result, class Context, class Prepare>
    boost::asio::awaitable<boost::json::object> run_handler(const Handler<Result, Context>& handler,
                                                            jsonrpc::InboundRequest& request, const PeerView& peer,
                                                            Prepare prepare);
    /// The loop behind run_handler, for a context that already exists; `first` is an outcome the
    /// handler already produced (by running inline in try_handle_now).
    template <class Result, class Context>
    boost::asio::awaitable<boost::json::object> drive_handler(Handler<Result, Context> handler,
                                                              std::shared_ptr<Context> context,
                                                              jsonrpc::InboundRequest& request, const PeerView& peer,
                                                              std::optional<Outcome<Result>> first);
    /// The context a handler gets, filled from the request and the peer.
    template <class Context>
    std::shared_ptr<Context> make_context(jsonrpc::InboundRequest& request, const PeerView& peer);
    boost::asio::awaitable<boost::json::object> fulfil_input_requests(const boost::json::object& input_requests,
                                                                      const jsonrpc::InboundRequest& request,
                                                                      const PeerView& peer);
    void fill_context(RequestContext& context, const PeerView& peer, const boost::json::object& params) const;
    /// Checks a tool's structured output against its outputSchema; throws mcp::Error.
    static void check_tool_output(const std::string& name, const SchemaValidator* validator,
                                  const boost::json::object& result);
    static void check_structured_output(const std::string& name, const SchemaValidator& validator,
                                        const std::optional<boost::json::value>& structured);

    std::shared_ptr<ServerState> state_;
    std::weak_ptr<jsonrpc::Connection> connection_;
    // 2025-era connection state.
    bool initialized_ = false;
    PeerView negotiated_;
    std::set<std::string> subscribed_uris_;
    // 2026-07-28 listen streams on this connection.
    std::vector<std::shared_ptr<ListenSubscription>> listeners_;
};

}  // namespace mcp::detail
