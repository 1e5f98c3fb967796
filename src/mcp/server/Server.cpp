#include "mcp/server/Server.hpp"

#include "mcp/jsonrpc/Connection.hpp"
#include "mcp/protocol/Methods.hpp"
#include "server/ServerSession.hpp"

#include <regex>
#include <stdexcept>

namespace mcp {
namespace asio = boost::asio;
namespace json = boost::json;
using detail::ServerState;

json::object schema_object(json::object properties, std::initializer_list<std::string_view> required,
                           bool allow_additional) {
    json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
    if (required.size() > 0) {
        json::array names;
        for (auto name : required) names.emplace_back(name);
        schema["required"] = std::move(names);
    }
    if (!allow_additional) schema["additionalProperties"] = false;
    return schema;
}

namespace detail {

json::object ServerState::capabilities(bool stateless) const {
    json::object caps{{"logging", json::object()}};
    if (tasks_offered) {
        if (stateless) caps["extensions"] = json::object{{tasks_extension, json::object()}};
        else caps["tasks"] = json::object{{"list", json::object()}, {"cancel", json::object()},
                                          {"requests", {{"tools", {{"call", json::object()}}}}}};
    }
    if (tools.size() > 0) caps["tools"] = json::object{{"listChanged", true}};
    if (resources.size() > 0 || templates.size() > 0)
        caps["resources"] = json::object{{"subscribe", true}, {"listChanged", true}};
    if (prompts.size() > 0) caps["prompts"] = json::object{{"listChanged", true}};
    if (!completions.empty()) caps["completions"] = json::object();
    return caps;
}

void ServerState::broadcast_list_changed(ListKind kind) {
    std::erase_if(sessions, [](const auto& weak) { return weak.expired(); });
    for (const auto& weak : sessions)
        if (auto session = weak.lock()) session->list_changed(kind);
}

void ServerState::broadcast_resource_updated(std::string_view uri) {
    std::erase_if(sessions, [](const auto& weak) { return weak.expired(); });
    for (const auto& weak : sessions)
        if (auto session = weak.lock()) session->resource_updated(uri);
}

}  // namespace detail

namespace {

// SEP-986: what a tool name may be.
void check_tool_name(const std::string& name) {
    static const std::regex pattern("^[A-Za-z0-9_./-]{1,64}$");
    if (!std::regex_match(name, pattern))
        throw std::invalid_argument("tool name \"" + name +
                                    "\" is invalid: use 1 to 64 characters from A-Z a-z 0-9 _ . / -");
}

}  // namespace

Server::Server(Implementation info, ServerOptions options)
    : state_(std::make_shared<ServerState>(std::move(info), std::move(options))) {
    state_->info_json = state_->info.to_json();
}

Server::~Server() {
    if (state_->pool) state_->pool->join();
}

const Implementation& Server::info() const { return state_->info; }
const ServerOptions& Server::options() const { return state_->options; }

asio::thread_pool& Server::worker_pool() {
    std::call_once(state_->pool_created, [&] {
        state_->pool = std::make_unique<asio::thread_pool>(std::max<std::size_t>(1, state_->options.worker_threads));
    });
    return *state_->pool;
}

Server& Server::add_tool_handler(Tool tool, Handler<CallToolResult, ToolCall> handler,
                                 ImmediateHandler<CallToolResult, ToolCall> immediate,
                                 InvalidArgumentsHandler on_invalid_arguments, TaskSupport task_support,
                                 bool input_before_task) {
    check_tool_name(tool.name);
    if (state_->tools.find(tool.name)) throw std::invalid_argument("tool \"" + tool.name + "\" is already registered");
    auto* type = tool.input_schema.if_contains("type");
    if (!type || !type->is_string() || type->get_string() != "object")
        throw std::invalid_argument("tool \"" + tool.name + "\": inputSchema must have \"type\": \"object\"");
    detail::ToolEntry entry;
    try {
        entry.input_validator = std::make_shared<detail::SchemaValidator>(tool.input_schema);
        if (tool.output_schema) entry.output_validator = std::make_shared<detail::SchemaValidator>(*tool.output_schema);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("tool \"" + tool.name + "\": " + e.what());
    }
    // 2026-07-28 lists no execution: whether a call becomes a task is the server's business there.
    entry.listed_stateless = tool.to_json();
    if (task_support != TaskSupport::forbidden && !tool.execution.contains("taskSupport"))
        tool.execution["taskSupport"] = task_support == TaskSupport::required ? "required" : "optional";
    entry.listed = tool.to_json();
    entry.listed_stateless.erase("execution");
    entry.task_support = task_support;
    entry.input_before_task = input_before_task;
    if (task_support != TaskSupport::forbidden) {
        state_->tasks_offered = true;
        immediate = {};  // a call that may become a task takes the full path
    }
    entry.handler = std::move(handler);
    entry.immediate = std::move(immediate);
    entry.on_invalid_arguments = std::move(on_invalid_arguments);
    std::string name = tool.name;
    entry.tool = std::move(tool);
    state_->tools.add(name, std::move(entry));
    state_->broadcast_list_changed(detail::ListKind::tools);
    return *this;
}

Server& Server::add_resource_handler(Resource resource, Handler<ReadResourceResult, ResourceRead> handler) {
    if (resource.uri.empty() || resource.name.empty())
        throw std::invalid_argument("a resource needs a uri and a name");
    if (state_->resources.find(resource.uri))
        throw std::invalid_argument("resource \"" + resource.uri + "\" is already registered");
    std::string uri = resource.uri;
    detail::ResourceEntry entry{std::move(resource), {}, std::move(handler)};
    entry.listed = entry.resource.to_json();
    state_->resources.add(uri, std::move(entry));
    state_->broadcast_list_changed(detail::ListKind::resources);
    return *this;
}

Server& Server::add_template_handler(ResourceTemplate resource_template,
                                     Handler<ReadResourceResult, ResourceRead> handler) {
    if (resource_template.uri_template.empty() || resource_template.name.empty())
        throw std::invalid_argument("a resource template needs a uriTemplate and a name");
    std::string key = resource_template.uri_template;
    detail::UriTemplate matcher(key);
    detail::TemplateEntry entry{std::move(resource_template), {}, std::move(matcher), std::move(handler)};
    entry.listed = entry.resource_template.to_json();
    if (!state_->templates.add(key, std::move(entry)))
        throw std::invalid_argument("resource template \"" + key + "\" is already registered");
    state_->broadcast_list_changed(detail::ListKind::resources);
    return *this;
}

Server& Server::add_prompt_handler(Prompt prompt, Handler<GetPromptResult, PromptGet> handler) {
    if (prompt.name.empty()) throw std::invalid_argument("a prompt needs a name");
    std::string name = prompt.name;
    detail::PromptEntry entry{std::move(prompt), {}, std::move(handler)};
    entry.listed = entry.prompt.to_json();
    if (!state_->prompts.add(name, std::move(entry)))
        throw std::invalid_argument("prompt \"" + name + "\" is already registered");
    state_->broadcast_list_changed(detail::ListKind::prompts);
    return *this;
}

Server& Server::add_completion_handler(std::string reference_type, std::string reference,
                                       Handler<Completion, CompletionRequest> handler) {
    if (reference_type != "ref/prompt" && reference_type != "ref/resource")
        throw std::invalid_argument("completion reference type must be \"ref/prompt\" or \"ref/resource\"");
    state_->completions[{std::move(reference_type), std::move(reference)}] = std::move(handler);
    return *this;
}

bool Server::remove_tool(std::string_view name) {
    if (!state_->tools.remove(name)) return false;
    state_->broadcast_list_changed(detail::ListKind::tools);
    return true;
}

bool Server::remove_prompt(std::string_view name) {
    if (!state_->prompts.remove(name)) return false;
    state_->broadcast_list_changed(detail::ListKind::prompts);
    return true;
}

bool Server::remove_resource(std::string_view uri) {
    if (!state_->resources.remove(uri)) return false;
    state_->broadcast_list_changed(detail::ListKind::resources);
    return true;
}

const Tool* Server::find_tool(std::string_view name) const {
    const auto* entry = state_->tools.find(name);
    return entry ? &entry->tool : nullptr;
}

Server& Server::set_task_store(std::shared_ptr<TaskStore> store) {
    state_->task_store = std::move(store);
    return *this;
}

Server& Server::require_scopes(ScopedItem item, std::string name, std::vector<std::string> scopes) {
    bool known = item == ScopedItem::tool     ? state_->tools.find(name) != nullptr
                 : item == ScopedItem::prompt ? state_->prompts.find(name) != nullptr
                                              : state_->resources.find(name) != nullptr;
    if (!known) throw std::invalid_argument("require_scopes: nothing called \"" + name + "\" is registered yet");
    state_->required_scopes[{item, std::move(name)}] = std::move(scopes);
    return *this;
}

std::vector<std::string> Server::required_scopes(std::string_view method, const json::object& params) const {
    if (state_->required_scopes.empty()) return {};
    ScopedItem item;
    std::string_view key;
    const json::object* holder = &params;
    if (method == "tools/call") item = ScopedItem::tool, key = "name";
    else if (method == "prompts/get") item = ScopedItem::prompt, key = "name";
    else if (method == "resources/read" || method == "resources/subscribe") item = ScopedItem::resource, key = "uri";
    else if (method == "completion/complete") {
        // Completing a prompt's arguments or a resource's is using that prompt or resource.
        auto* ref = params.if_contains("ref");
        if (!ref || !ref->is_object()) return {};
        holder = &ref->get_object();
        auto* type = holder->if_contains("type");
        if (type && type->is_string() && type->get_string() == "ref/prompt") item = ScopedItem::prompt, key = "name";
        else item = ScopedItem::resource, key = "uri";
    } else {
        return {};
    }
    auto* name = holder->if_contains(key);
    if (!name || !name->is_string()) return {};
    auto* scopes = state_->scopes_for(item, name->get_string());
    return scopes ? *scopes : std::vector<std::string>{};
}

void Server::notify_resource_updated(std::string_view uri) { state_->broadcast_resource_updated(uri); }

asio::awaitable<void> Server::serve(std::shared_ptr<Transport> transport) {
    auto state = state_;
    auto session = std::make_shared<detail::ServerSession>(state);
    jsonrpc::ConnectionOptions options;
    options.default_timeout = state->options.client_request_timeout;
    options.max_requests_in_flight = state->options.max_requests_in_flight;
    auto weak_connection = std::make_shared<std::weak_ptr<jsonrpc::Connection>>();
    options.on_request_abandoned = [weak_connection](const jsonrpc::RequestId& id, const std::string& reason) {
        if (auto connection = weak_connection->lock())
            connection->notify(notifications::cancelled, json::object{{"requestId", id.to_json()}, {"reason", reason}});
    };
    options.on_protocol_error = [state](const jsonrpc::ErrorObject& error) { state->log(error.message); };
    auto connection = std::make_shared<jsonrpc::Connection>(transport, session, std::move(options));
    *weak_connection = connection;
    session->attach(connection);
    state->sessions.push_back(session);
    co_await connection->run();
    transport->close();
    std::erase_if(state->sessions, [&](const auto& weak) {
        auto live = weak.lock();
        return !live || live == session;
    });
}

}  // namespace mcp
