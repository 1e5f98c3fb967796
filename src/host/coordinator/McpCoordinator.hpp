#pragma once
// The seed's MCP coordinator: every server of mcp.json connected in parallel, their tools under
// qualified names, and each call checked and guarded before it goes out: the tool exists, the
// arguments fit its schema, its circuit is closed, its rate allows it, its server is up (started
// again if it died); then called with the server's timeout, MCP cancellation and progress, and
// retried once when the connection failed under it. Reliability is counted per tool.

#include "host/config/McpConfig.hpp"
#include "host/coordinator/CircuitBreaker.hpp"
#include "host/coordinator/ServerConnection.hpp"
#include "host/llm/LanguageModel.hpp"

#include <mcp/Cancellation.hpp>
#include <mcp/schema/JsonSchema.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mcpkit::host {

struct RegisteredTool {
    std::string qualified_name;
    std::string server;
    mcp::Tool tool;
    bool read_only = false;
    bool needs_approval = true;
    /// MCP Apps visibility: offered to the model, callable from the server's own views.
    bool visible_to_model = true;
    bool visible_to_app = true;
    std::shared_ptr<const mcp::JsonSchema> schema;  ///< null when the tool's schema does not compile
};

struct ToolCallOptions {
    /// Who calls: "model" (only tools visible to it), "app" (a view; only tools visible to apps),
    /// or "user" (by hand, any tool).
    std::string caller = "user";
    /// The conversation the call is made for: the server's questions during the call (sampling,
    /// elicitation) go to it, where the transport tells which call they belong to.
    std::string session_id;
    mcp::CancellationToken cancellation;
    std::function<void(double progress, std::optional<double> total, const std::string& message)> on_progress;
    /// The call runs as an MCP task: each status it is seen in (working, input_required, …).
    std::function<void(const mcp::TaskUpdate& update)> on_task;
};

struct ToolOutcome {
    /// The MCP CallToolResult, or one the host made to explain a refusal or failure.
    boost::json::object result;
    bool is_error = false;
    /// The call never reached the tool (unknown, invalid arguments, open circuit, rate, server down).
    bool refused = false;
    std::chrono::milliseconds duration{0};

    /// A call that did not reach the tool, explained to the model as an error result.
    static ToolOutcome refusal(std::string_view message);
};

struct ToolMetrics {
    std::uint64_t calls = 0;
    std::uint64_t failures = 0;
    std::uint64_t tool_errors = 0;
    double total_ms = 0;
    std::int64_t last_used = 0;  ///< ms since the epoch
};

class McpCoordinator {
public:
    McpCoordinator(boost::asio::any_io_executor executor, ServerCallbacks callbacks);
    ~McpCoordinator();

    /// Starts every server of `config` in parallel and returns when all are ready or failed.
    boost::asio::awaitable<void> start(McpConfig config);
    /// Applies a new configuration: servers whose entry changed or disappeared are stopped,
    /// new and changed ones started; the others keep running (and their sessions their calls).
    boost::asio::awaitable<void> reload(McpConfig config);
    boost::asio::awaitable<void> shutdown();

    /// The tools to offer a model: every ready server's, minus open circuits and app-only tools.
    /// The same list is returned until something changes.
    ToolList tools_for_model();
    /// Shared, not copied: a call holds on to its tool while the registry may be rebuilt.
    std::shared_ptr<const RegisteredTool> find_tool(const std::string& qualified_name);
    boost::asio::awaitable<ToolOutcome> call_tool(const std::string& qualified_name, boost::json::object arguments,
                                                  ToolCallOptions options);

    std::shared_ptr<ServerConnection> server(const std::string& name) const;
    const std::vector<std::shared_ptr<ServerConnection>>& servers() const { return servers_; }
    /// The `servers` frame's list (see docs/host-websocket.md).
    boost::json::array describe_servers();
    boost::json::object metrics() const;

private:
    void rebuild_registry();
    boost::asio::awaitable<void> start_all(std::vector<std::shared_ptr<ServerConnection>> servers);
    std::optional<std::string> rate_limited(const RegisteredTool& tool);
    /// The breaker of `server`'s tools, made with its entry's settings.
    CircuitBreaker& breaker(const std::string& server);
    bool circuit_open(const std::string& server, const std::string& tool) { return breaker(server).is_open(tool); }

    boost::asio::any_io_executor executor_;
    ServerCallbacks callbacks_;
    std::vector<std::shared_ptr<ServerConnection>> servers_;
    std::map<std::string, std::shared_ptr<const RegisteredTool>> registry_;
    /// Qualified names more than one tool maps to (none of them is registered), and per server
    /// what to tell the user about them.
    std::set<std::string> name_collisions_;
    std::map<std::string, std::vector<std::string>> collision_warnings_;
    bool registry_stale_ = true;
    ToolList model_tools_;  ///< every ready tool the model may see, before open circuits are left out
    std::map<std::string, CircuitBreaker> breakers_;
    std::map<std::string, ToolMetrics> metrics_;
    std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> recent_calls_;
};

}  // namespace mcpkit::host
