#include "host/coordinator/McpCoordinator.hpp"

#include "host/coordinator/AppMetadata.hpp"
#include "host/coordinator/ToolNames.hpp"
#include "host/history/Clock.hpp"

#include <mcp/Error.hpp>
#include <mcp/jsonrpc/ErrorCodes.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstdio>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

bool annotated_read_only(const mcp::Tool& tool) {
    auto* hint = tool.annotations.if_contains("readOnlyHint");
    return hint && hint->is_bool() && hint->get_bool();
}

}  // namespace

ToolOutcome ToolOutcome::refusal(std::string_view message) {
    ToolOutcome outcome;
    outcome.result = mcp::CallToolResult::error(message).to_json();
    outcome.is_error = true;
    outcome.refused = true;
    return outcome;
}

McpCoordinator::McpCoordinator(asio::any_io_executor executor, ServerCallbacks callbacks)
    : executor_(std::move(executor)), callbacks_(std::move(callbacks)) {
    auto forward = callbacks_.on_change;
    callbacks_.on_change = [this, forward] {
        registry_stale_ = true;
        if (forward) forward();
    };
}

McpCoordinator::~McpCoordinator() = default;

asio::awaitable<void> McpCoordinator::start_all(std::vector<std::shared_ptr<ServerConnection>> servers) {
    if (servers.empty()) co_return;
    auto remaining = std::make_shared<std::size_t>(servers.size());
    auto all_done = std::make_shared<asio::steady_timer>(executor_, asio::steady_timer::time_point::max());
    for (auto& server : servers)
        asio::co_spawn(executor_, server->start(), [remaining, all_done](std::exception_ptr) {
            if (--*remaining == 0) all_done->cancel();
        });
    boost::system::error_code ec;
    co_await all_done->async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

asio::awaitable<void> McpCoordinator::start(McpConfig config) {
    std::vector<std::shared_ptr<ServerConnection>> started;
    for (auto& entry : config.servers) {
        auto server = std::make_shared<ServerConnection>(executor_, std::move(entry), callbacks_);
        servers_.push_back(server);
        started.push_back(server);
    }
    co_await start_all(std::move(started));
    registry_stale_ = true;
}

asio::awaitable<void> McpCoordinator::reload(McpConfig config) {
    std::vector<std::shared_ptr<ServerConnection>> kept, fresh, stopped;
    for (auto& entry : config.servers) {
        auto existing = std::find_if(servers_.begin(), servers_.end(),
                                     [&](const auto& server) { return server->name() == entry.name; });
        if (existing != servers_.end() && (*existing)->entry().source == entry.source) {
            kept.push_back(*existing);
            continue;
        }
        auto server = std::make_shared<ServerConnection>(executor_, std::move(entry), callbacks_);
        fresh.push_back(server);
        kept.push_back(server);
    }
    for (auto& server : servers_)
        if (std::find(kept.begin(), kept.end(), server) == kept.end()) stopped.push_back(server);
    for (auto& server : fresh) breakers_.erase(server->name());
    servers_ = kept;
    registry_stale_ = true;
    for (auto& server : stopped) co_await server->stop();
    co_await start_all(std::move(fresh));
    if (callbacks_.on_change) callbacks_.on_change();
}

asio::awaitable<void> McpCoordinator::shutdown() {
    for (auto& server : servers_) co_await server->stop();
    servers_.clear();
    registry_.clear();
}

CircuitBreaker& McpCoordinator::breaker(const std::string& server) {
    auto it = breakers_.find(server);
    if (it == breakers_.end()) {
        auto connection = this->server(server);
        int failures = connection ? connection->entry().breaker_failures : 5;
        auto reset = connection ? connection->entry().breaker_reset : std::chrono::milliseconds(std::chrono::seconds(60));
        it = breakers_.emplace(server, CircuitBreaker(failures, reset)).first;
    }
    return it->second;
}

std::shared_ptr<ServerConnection> McpCoordinator::server(const std::string& name) const {
    for (const auto& server : servers_)
        if (server->name() == name) return server;
    return nullptr;
}

void McpCoordinator::rebuild_registry() {
    if (!registry_stale_) return;
    std::map<std::string, std::shared_ptr<const RegisteredTool>> registry;
    // Names two tools would share: neither is offered, since either could be called in the other's
    // place (a hostile server can pick a tool name that lands on another server's).
    std::map<std::string, std::vector<std::string>> claimants;
    for (const auto& server : servers_)
        for (const auto& tool : server->tools())
            claimants[qualified_tool_name(server->name(), tool.name)].push_back(server->name() + " › " + tool.name);
    std::map<std::string, std::vector<std::string>> collisions;
    for (auto& [name, owners] : claimants) {
        if (owners.size() < 2) continue;
        std::string message = "the tools ";
        for (std::size_t i = 0; i < owners.size(); ++i) message += (i ? " and " : "") + owners[i];
        message += " would both be called " + name + ", so neither is offered; rename a server in mcp.json";
        if (!name_collisions_.contains(name) && callbacks_.log) callbacks_.log(message);
        for (const auto& owner : owners) collisions[owner.substr(0, owner.find(" › "))].push_back(message);
    }
    name_collisions_.clear();
    for (const auto& [name, owners] : claimants)
        if (owners.size() > 1) name_collisions_.insert(name);
    collision_warnings_ = std::move(collisions);
    for (const auto& server : servers_) {
        for (const auto& tool : server->tools()) {
            RegisteredTool entry;
            entry.qualified_name = qualified_tool_name(server->name(), tool.name);
            if (name_collisions_.contains(entry.qualified_name)) continue;
            entry.server = server->name();
            entry.tool = tool;
            entry.read_only = annotated_read_only(tool);
            // Annotations are the server's claims: they spare a question only when the user said
            // this server's claims are to be believed (trustAnnotations).
            entry.needs_approval = server->entry().approval == ApprovalPolicy::ask &&
                                   !(entry.read_only && server->entry().trust_annotations);
            entry.visible_to_model = visible_to(tool, "model");
            entry.visible_to_app = visible_to(tool, "app");
            // Keep the compiled schema of a tool seen before: compiling is not free.
            if (auto old = registry_.find(entry.qualified_name);
                old != registry_.end() && old->second->tool.input_schema == tool.input_schema) {
                entry.schema = old->second->schema;
            } else {
                try {
                    entry.schema = std::make_shared<const mcp::JsonSchema>(mcp::JsonSchema::compile(tool.input_schema));
                } catch (const std::exception& e) {
                    if (callbacks_.log)
                        callbacks_.log(server->name() + ": the input schema of " + tool.name +
                                       " does not compile, so its arguments go unchecked: " + e.what());
                }
            }
            std::string name = entry.qualified_name;
            registry.emplace(std::move(name), std::make_shared<const RegisteredTool>(std::move(entry)));
        }
    }
    registry_ = std::move(registry);
    registry_stale_ = false;
    model_tools_.reset();
}

std::shared_ptr<const RegisteredTool> McpCoordinator::find_tool(const std::string& qualified_name) {
    rebuild_registry();
    auto it = registry_.find(qualified_name);
    return it == registry_.end() ? nullptr : it->second;
}

ToolList McpCoordinator::tools_for_model() {
    rebuild_registry();
    if (!model_tools_) {
        auto tools = std::make_shared<std::vector<ToolDeclaration>>();
        for (const auto& [name, tool] : registry_) {
            auto server = this->server(tool->server);
            if (!server || server->state() != ServerState::ready) continue;
            if (!tool->visible_to_model) continue;  // an MCP App's own tool
            std::string description = tool->tool.description;
            if (description.empty() && tool->tool.title) description = *tool->tool.title;
            tools->push_back({name, description, tool->tool.input_schema});
        }
        model_tools_ = std::move(tools);
    }
    // Open circuits are rare: without a failure on record the shared list is the answer.
    bool any_failures = std::any_of(breakers_.begin(), breakers_.end(), [](const auto& entry) { return !entry.second.empty(); });
    if (!any_failures) return model_tools_;
    bool any_open = false;
    for (const auto& declaration : *model_tools_)
        if (auto tool = find_tool(declaration.name); tool && circuit_open(tool->server, declaration.name)) {
            any_open = true;
            break;
        }
    if (!any_open) return model_tools_;
    auto open_left_out = std::make_shared<std::vector<ToolDeclaration>>();
    for (const auto& declaration : *model_tools_)
        if (auto tool = find_tool(declaration.name); tool && !circuit_open(tool->server, declaration.name))
            open_left_out->push_back(declaration);
    return open_left_out;
}

std::optional<std::string> McpCoordinator::rate_limited(const RegisteredTool& tool) {
    auto server = this->server(tool.server);
    double limit = server ? server->entry().rate_limit_per_minute : 0;
    if (limit <= 0) return std::nullopt;
    auto now = std::chrono::steady_clock::now();
    auto& recent = recent_calls_[tool.qualified_name];
    while (!recent.empty() && now - recent.front() > std::chrono::minutes(1)) recent.pop_front();
    if (static_cast<double>(recent.size()) >= limit) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", limit);
        return "the tool " + tool.qualified_name + " is limited to " + text +
               " calls per minute (rateLimitPerMinute in mcp.json); try again in a minute";
    }
    recent.push_back(now);
    return std::nullopt;
}

asio::awaitable<ToolOutcome> McpCoordinator::call_tool(const std::string& qualified_name, json::object arguments,
                                                       ToolCallOptions options) {
    auto started = std::chrono::steady_clock::now();
    auto refuse = [](const std::string& message) { return ToolOutcome::refusal(message); };
    std::shared_ptr<const RegisteredTool> found = find_tool(qualified_name);
    if (found && ((options.caller == "model" && !found->visible_to_model) || (options.caller == "app" && !found->visible_to_app)))
        found = nullptr;  // what the caller may not call does not exist for it
    if (!found) {
        std::string names;
        for (const auto& declaration : *tools_for_model()) names += (names.empty() ? "" : ", ") + declaration.name;
        co_return refuse("There is no tool named \"" + qualified_name + "\". Available tools: " +
                         (names.empty() ? "none" : names) + ".");
    }
    const RegisteredTool& tool = *found;  // held: the registry may be rebuilt while the call runs
    if (tool.schema)
        if (auto problem = tool.schema->validate(arguments))
            co_return refuse("Invalid arguments for " + qualified_name + ": " + *problem +
                             ". The tool's input schema is " + json::serialize(tool.tool.input_schema));
    if (circuit_open(tool.server, qualified_name)) {
        auto& open = breaker(tool.server);
        auto wait = std::chrono::duration_cast<std::chrono::seconds>(open.reopens_at(qualified_name) -
                                                                     std::chrono::steady_clock::now());
        co_return refuse("The tool " + qualified_name + " failed " + std::to_string(open.failures(qualified_name)) +
                         " times, so the host stops calling it until " + std::to_string(std::max<long long>(1, wait.count())) +
                         " s pass without a failure.");
    }
    if (auto limited = rate_limited(tool)) co_return refuse(*limited);

    auto server = this->server(tool.server);
    auto& metrics = metrics_[qualified_name];
    ToolOutcome outcome;
    bool host_failed = false;
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (server) co_await server->ensure_started();
        std::shared_ptr<mcp::Client> client = server ? server->client() : nullptr;
        if (!client) {
            co_return refuse("The server " + tool.server + " is not running: " +
                             (server && !server->error().empty() ? server->error() : "it is starting"));
        }
        mcp::RequestOptions request;
        request.cancellation = options.cancellation;
        request.on_progress = options.on_progress;
        request.on_task = options.on_task;
        request.timeout = server->entry().call_timeout;
        if (!options.session_id.empty()) request.caller = options.session_id;
        std::string failure;
        bool connection_failed = false;
        try {
            mcp::CallToolResult result = co_await client->call_tool(tool.tool.name, arguments, request);
            outcome.is_error = result.is_error;
            outcome.result = std::move(result).to_json();
        } catch (const mcp::Error& e) {
            failure = e.what();
            if (e.code() == mcp::jsonrpc::error_code::request_timeout)
                failure = "the tool did not answer within " + std::to_string(server->entry().call_timeout.count()) +
                          " ms (timeoutMs in mcp.json)";
            if (e.code() == mcp::jsonrpc::error_code::request_cancelled || options.cancellation.cancelled())
                failure = "cancelled by the user";
            connection_failed = e.code() == mcp::jsonrpc::error_code::connection_closed;
        } catch (const std::exception& e) {
            failure = e.what();
            connection_failed = true;
        }
        if (failure.empty()) break;
        if (connection_failed) failure = co_await server->lost(failure);
        // One more try when the connection died under the call and the user did not stop it.
        if (connection_failed && attempt == 0 && !options.cancellation.cancelled()) continue;
        outcome.result = mcp::CallToolResult::error("The call to " + qualified_name + " failed: " + failure).to_json();
        outcome.is_error = true;
        host_failed = true;
        if (!options.cancellation.cancelled()) {
            breaker(tool.server).record_failure(qualified_name);
            ++metrics.failures;
        }
        break;
    }
    outcome.duration = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    ++metrics.calls;
    metrics.total_ms += static_cast<double>(outcome.duration.count());
    metrics.last_used = now_milliseconds();
    // A tool that keeps answering isError is as unreliable as one that keeps failing: both count
    // against its breaker (the TypeScript SDK turns thrown errors into such results).
    if (!outcome.is_error) breaker(tool.server).record_success(qualified_name);
    else if (!host_failed) {
        ++metrics.tool_errors;
        breaker(tool.server).record_failure(qualified_name);
    }
    co_return outcome;
}

json::array McpCoordinator::describe_servers() {
    rebuild_registry();
    json::array list;
    for (const auto& server : servers_) {
        json::object item{{"name", server->name()},
                          {"state", server_state_name(server->state())},
                          {"transport", server->entry().transport == ServerTransport::stdio ? "stdio"
                                        : server->entry().transport == ServerTransport::sse ? "sse"
                                                                                            : "http"}};
        if (!server->error().empty()) item["error"] = server->error();
        if (auto warnings = collision_warnings_.find(server->name()); warnings != collision_warnings_.end()) {
            json::array list;
            for (const auto& warning : warnings->second) list.push_back(json::value(warning));
            item["warnings"] = std::move(list);
        }
        if (callbacks_.sign_in)
            if (auto url = callbacks_.sign_in->pending_url(server->name())) item["signIn"] = *url;
        if (server->state() != ServerState::ready && !server->stderr_tail().empty()) {
            json::array lines;
            for (const auto& line : server->stderr_tail()) lines.push_back(json::value(line));
            item["stderr"] = std::move(lines);
        }
        json::array tools;
        for (const auto& [name, tool] : registry_) {
            if (tool->server != server->name()) continue;
            json::object entry{{"name", tool->tool.name},
                               {"qualifiedName", name},
                               {"description", tool->tool.description},
                               {"inputSchema", tool->tool.input_schema},
                               {"readOnly", tool->read_only},
                               {"approval", tool->needs_approval ? "ask" : "auto"}};
            if (circuit_open(server->name(), name)) entry["circuit"] = "open";
            tools.push_back(std::move(entry));
        }
        item["tools"] = std::move(tools);
        json::array prompts;
        for (const auto& prompt : server->prompts()) prompts.push_back(prompt.to_json());
        item["prompts"] = std::move(prompts);
        json::array resources;
        for (const auto& resource : server->resources()) resources.push_back(resource.to_json());
        item["resources"] = std::move(resources);
        list.push_back(std::move(item));
    }
    return list;
}

json::object McpCoordinator::metrics() const {
    json::object out;
    for (const auto& [name, metrics] : metrics_)
        out[name] = {{"calls", metrics.calls},
                     {"failures", metrics.failures},
                     {"toolErrors", metrics.tool_errors},
                     {"averageMs", metrics.calls ? metrics.total_ms / static_cast<double>(metrics.calls) : 0.0},
                     {"lastUsed", metrics.last_used}};
    return out;
}

}  // namespace mcpkit::host
