#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// What a Server shares with all its sessions: identity, options, the feature registries, and the
// list of live sessions that change notifications go to.

#include "mcp/server/Server.hpp"
#include "server/SchemaValidator.hpp"
#include "mcp/store/TaskStore.hpp"
#include "server/TaskRegistry.hpp"
#include "server/UriTemplate.hpp"

#include <boost/asio/thread_pool.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mcp::detail {

/// Named entries kept in registration order, so lists are deterministic (2026 requires it for tools).
template <class Entry>
class Registry {
public:
    bool add(const std::string& name, Entry entry) {
        if (!entries_.emplace(name, std::move(entry)).second) return false;
        order_.push_back(name);
        return true;
    }
    bool remove(std::string_view name) {
        auto it = entries_.find(std::string(name));
        if (it == entries_.end()) return false;
        entries_.erase(it);
        std::erase(order_, std::string(name));
        return true;
    }
    const Entry* find(std::string_view name) const {
        auto it = entries_.find(std::string(name));
        return it == entries_.end() ? nullptr : &it->second;
    }
    const std::vector<std::string>& order() const { return order_; }
    std::size_t size() const { return order_.size(); }

private:
    std::unordered_map<std::string, Entry> entries_;
    std::vector<std::string> order_;
};

struct ToolEntry {
    Tool tool;
    boost::json::object listed;  ///< the tools/list form, built once
    boost::json::object listed_stateless;  ///< the same for 2026-07-28 (no execution)
    TaskSupport task_support = TaskSupport::forbidden;
    bool input_before_task = false;
    Handler<CallToolResult, ToolCall> handler;
    ImmediateHandler<CallToolResult, ToolCall> immediate;  ///< empty unless it may run inline
    std::shared_ptr<SchemaValidator> input_validator;
    std::shared_ptr<SchemaValidator> output_validator;
    InvalidArgumentsHandler on_invalid_arguments;  ///< empty: the default isError text
};

struct ResourceEntry {
    Resource resource;
    boost::json::object listed;
    Handler<ReadResourceResult, ResourceRead> handler;
};

struct TemplateEntry {
    ResourceTemplate resource_template;
    boost::json::object listed;
    UriTemplate matcher;
    Handler<ReadResourceResult, ResourceRead> handler;
};

struct PromptEntry {
    Prompt prompt;
    boost::json::object listed;
    Handler<GetPromptResult, PromptGet> handler;
};

enum class ListKind { tools, resources, prompts };

struct ServerState {
    ServerState(Implementation info_, ServerOptions options_)
        : info(std::move(info_)), options(std::move(options_)) {}

    Implementation info;
    boost::json::object info_json;
    ServerOptions options;
    Registry<ToolEntry> tools;
    Registry<ResourceEntry> resources;
    Registry<TemplateEntry> templates;
    Registry<PromptEntry> prompts;
    std::map<std::pair<std::string, std::string>, Handler<Completion, CompletionRequest>> completions;
    /// Some tool may run as a task; the tasks live here, shared by every session.
    bool tasks_offered = false;
    TaskRegistry tasks_running;
    /// Where other instances see the tasks (Server::set_task_store); none for a lone server.
    std::shared_ptr<TaskStore> task_store;
    /// Server::require_scopes, by item kind and name.
    std::map<std::pair<ScopedItem, std::string>, std::vector<std::string>, std::less<>> required_scopes;
    /// The scopes an item needs; nullptr for none.
    const std::vector<std::string>* scopes_for(ScopedItem item, std::string_view name) const {
        if (required_scopes.empty()) return nullptr;
        auto found = required_scopes.find(std::pair<ScopedItem, std::string>(item, name));
        return found == required_scopes.end() ? nullptr : &found->second;
    }
    std::vector<std::weak_ptr<ServerSession>> sessions;
    std::once_flag pool_created;
    std::unique_ptr<boost::asio::thread_pool> pool;

    /// The capabilities object for initialize and server/discover, from what is registered.
    /// The capabilities for initialize (2025 era) or server/discover (`stateless`).
    boost::json::object capabilities(bool stateless) const;
    void broadcast_list_changed(ListKind kind);
    void broadcast_resource_updated(std::string_view uri);
    void log(std::string_view message) const {
        if (options.log) options.log(message);
    }
};

}  // namespace mcp::detail
