#include "client/ClientSession.hpp"

#include "mcp/Error.hpp"
#include "mcp/jsonrpc/Codec.hpp"
#include "mcp/protocol/Methods.hpp"

namespace mcp::detail {
namespace asio = boost::asio;
namespace json = boost::json;
using jsonrpc::Reply;

json::object ClientSession::capabilities() const {
    json::object caps;
    if (options.on_sampling) caps["sampling"] = json::object();
    if (options.on_elicitation) caps["elicitation"] = json::object{{"form", json::object()}, {"url", json::object()}};
    if (options.roots) caps["roots"] = json::object{{"listChanged", true}};
    // 2026-07-28 declares the tasks extension with every request (2025's task calls need no
    // client capability: the client only asks for tasks, it does not run them).
    if (options.tasks && stateless)
        caps["extensions"] = json::object{{"io.modelcontextprotocol/tasks", json::object()}};
    for (const auto& [key, value] : options.capabilities) caps[key] = value;
    return caps;
}

bool ClientSession::server_does_task_calls() const {
    auto* tasks = server_capabilities.if_contains("tasks");
    auto* requests = tasks && tasks->is_object() ? tasks->get_object().if_contains("requests") : nullptr;
    auto* tools = requests && requests->is_object() ? requests->get_object().if_contains("tools") : nullptr;
    return tools && tools->is_object() && tools->get_object().contains("call");
}

struct ClientSession::Method {
    std::string_view name;
    asio::awaitable<json::object> (ClientSession::*answer)(const json::object& params,
                                                           const ServerRequestContext& context);
};

const ClientSession::Method* ClientSession::find_method(std::string_view name) {
    static const Method table[] = {
        {methods::sampling_create_message, &ClientSession::answer_sampling},
        {methods::elicitation_create, &ClientSession::answer_elicitation},
        {methods::roots_list, &ClientSession::answer_roots},
        {methods::ping, &ClientSession::answer_ping},
    };
    for (const Method& method : table)
        if (method.name == name) return &method;
    return nullptr;
}

asio::awaitable<json::object> ClientSession::answer(std::string_view method, const json::object& params,
                                                    const ServerRequestContext& context) {
    const Method* entry = find_method(method);
    if (!entry) throw Error::method_not_found(method);
    co_return co_await (this->*entry->answer)(params, context);
}

// A capability the client did not declare is a method it does not have.
asio::awaitable<json::object> ClientSession::answer_sampling(const json::object& params,
                                                             const ServerRequestContext& context) {
    if (!options.on_sampling) throw Error::method_not_found(methods::sampling_create_message);
    co_return co_await options.on_sampling(params, context);
}

asio::awaitable<json::object> ClientSession::answer_elicitation(const json::object& params,
                                                                const ServerRequestContext& context) {
    if (!options.on_elicitation) throw Error::method_not_found(methods::elicitation_create);
    co_return co_await options.on_elicitation(params, context);
}

asio::awaitable<json::object> ClientSession::answer_roots(const json::object&, const ServerRequestContext&) {
    if (!options.roots) throw Error::method_not_found(methods::roots_list);
    json::array roots;
    for (const auto& root : *options.roots) {
        json::object r{{"uri", root.uri}};
        if (root.name) r["name"] = *root.name;
        roots.push_back(std::move(r));
    }
    co_return json::object{{"roots", std::move(roots)}};
}

asio::awaitable<json::object> ClientSession::answer_ping(const json::object&, const ServerRequestContext&) {
    co_return json::object();
}

asio::awaitable<Reply> ClientSession::handle_request(jsonrpc::InboundRequest& request) {
    static const json::object no_params;
    const json::object& params = request.params.is_object() ? request.params.get_object() : no_params;
    ServerRequestContext context;
    if (auto* related = dynamic_cast<const jsonrpc::RelatedRequestOrigin*>(request.origin.get()))
        if (auto it = callers.find(related->request); it != callers.end()) context.caller = *it->second;
    try {
        co_return Reply::success(co_await answer(request.method, params, context));
    } catch (const Error& e) {
        co_return Reply::failure(e.code(), e.what(), e.data());
    }
}

void ClientSession::handle_notification(jsonrpc::Notification& notification) {
    if (notification.method == notifications::progress && notification.params.is_object()) {
        const auto& params = notification.params.get_object();
        auto* token = params.if_contains("progressToken");
        auto* progress = params.if_contains("progress");
        if (token && token->is_int64() && progress && progress->is_number()) {
            auto it = progress_listeners.find(token->get_int64());
            if (it != progress_listeners.end()) {
                std::optional<double> total;
                if (auto* t = params.if_contains("total"); t && t->is_number()) total = t->to_number<double>();
                std::string message;
                if (auto* m = params.if_contains("message"); m && m->is_string()) message = std::string(m->get_string());
                if (it->second.reset_timeout && connection) connection->extend_deadline(it->second.request_id);
                if (it->second.callback) it->second.callback(progress->to_number<double>(), total, message);
                return;
            }
        }
    }
    if (notification.method == notifications::cancelled && notification.params.is_object()) {
        jsonrpc::RequestId id;
        if (auto* r = notification.params.get_object().if_contains("requestId");
            r && jsonrpc::RequestId::from_json(*r, id) && connection)
            connection->cancel_inbound(id, "cancelled by the server");
        return;
    }
    if (options.on_notification) options.on_notification(notification.method, notification.params);
}

}  // namespace mcp::detail
