#include "server/ServerSession.hpp"
#include "mcp/protocol/ErrorCodes.hpp"

#include "server/RequestParams.hpp"
#include "transport/RequestStreamControl.hpp"

#include "mcp/protocol/Methods.hpp"
#include "mcp/protocol/Versions.hpp"
#include "mcp/Error.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {
namespace asio = boost::asio;
namespace json = boost::json;
using jsonrpc::Reply;
namespace error_code = mcp::error_code;

namespace {

Reply error_reply(const Error& e) { return Reply::failure(e.code(), e.what(), e.data()); }

/// Methods of 2026-07-28; anything else sent with 2026 _meta is "not found" there.
json::array supported_stateless_versions() {
    json::array out;
    for (auto v : versions::stateless) out.emplace_back(v);
    return out;
}

}  // namespace

asio::awaitable<Reply> ServerSession::handle_request(jsonrpc::InboundRequest& request) {
    try {
        const json::object& params = params_object(request.params);
        if (!request.params.is_null() && !request.params.is_object())
            co_return Reply::failure(error_code::invalid_params, "Invalid params: \"params\" must be an object");
        // A request that names a protocol version in _meta is a 2026-07-28 request, whatever
        // the connection did before (the spec lets one process serve both eras).
        if (auto* meta = params.if_contains("_meta"); meta && meta->is_object() &&
                                                       meta->get_object().contains(meta_keys::protocol_version))
            co_return co_await handle_stateless(request, meta->get_object());
        co_return co_await handle_stateful(request);
    } catch (const Error& e) {
        co_return error_reply(e);
    }
}

asio::awaitable<Reply> ServerSession::handle_stateful(jsonrpc::InboundRequest& request) {
    const Method* method = find_method(request.method);
    if (!method) co_return Reply::failure(error_code::method_not_found, "Method not found: " + request.method);
    if (!served_in_session_era(*method))
        co_return Reply::failure(error_code::invalid_params,
                                 "Invalid params: " + request.method + " needs the 2026-07-28 _meta \"" +
                                     std::string(meta_keys::protocol_version) + "\"");
    if (!initialized_ && !allowed_before_initialize(*method)) {
        co_return Reply::failure(
            error_code::invalid_params,
            "Invalid params: missing _meta \"" + std::string(meta_keys::protocol_version) +
                "\". Send initialize first (protocol 2025-11-25 and earlier) or give every request its "
                "_meta (protocol 2026-07-28).");
    }
    json::object result = co_await run_method(*method, request, negotiated_);
    co_return Reply::success(std::move(result));
}

asio::awaitable<json::object> ServerSession::method_initialize(jsonrpc::InboundRequest& request, const PeerView&) {
    const json::object& params = params_object(request.params);
    auto* requested = params.if_contains("protocolVersion");
    if (!requested || !requested->is_string())
        throw Error::invalid_params("Invalid params: \"protocolVersion\" must be a string");
    auto* capabilities = params.if_contains("capabilities");
    if (capabilities && !capabilities->is_object())
        throw Error::invalid_params("Invalid params: \"capabilities\" must be an object");
    auto* client_info = params.if_contains("clientInfo");
    if (client_info && !client_info->is_object())
        throw Error::invalid_params("Invalid params: \"clientInfo\" must be an object");

    // The client's version when we speak it, else our latest; 2026-07-28 is never negotiated here.
    std::string_view version = requested->get_string();
    if (!versions::is_stateful(version)) version = versions::latest_stateful;

    negotiated_.version = std::string(version);
    negotiated_.stateless = false;
    negotiated_.client_capabilities = capabilities ? capabilities->get_object() : json::object();
    negotiated_.client_info = client_info ? Implementation::from_json(client_info->get_object()) : Implementation{};
    negotiated_.log_level.reset();
    negotiated_.log_everything = true;
    initialized_ = true;
    if (auto connection = connection_.lock()) connection->set_allow_batches(versions::allows_batches(version));

    json::object offered = state_->capabilities(false);
    if (negotiated_.version < versions::v2025_11_25) offered.erase("tasks");  // tasks came with 2025-11-25
    json::object result{{"protocolVersion", negotiated_.version},
                        {"capabilities", std::move(offered)},
                        {"serverInfo", state_->info_json}};
    if (state_->options.instructions) result["instructions"] = *state_->options.instructions;
    co_return result;
}

asio::awaitable<Reply> ServerSession::handle_stateless(jsonrpc::InboundRequest& request, const json::object& meta) {
    const Method* method = find_method(request.method);
    if (!method || !served_statelessly(*method))
        co_return Reply::failure(error_code::method_not_found,
                                 "Method not found: " + request.method + " is not a method of protocol 2026-07-28");
    PeerView peer;
    peer.stateless = true;
    const json::value& version = meta.at(meta_keys::protocol_version);
    if (!version.is_string())
        co_return Reply::failure(error_code::invalid_params, "Invalid params: _meta \"" +
                                                                 std::string(meta_keys::protocol_version) +
                                                                 "\" must be a string");
    if (!versions::is_stateless(version.get_string()))
        co_return Reply::failure(error_code::unsupported_protocol_version,
                                 "Unsupported protocol version: " + std::string(version.get_string()),
                                 json::object{{"supported", supported_stateless_versions()}, {"requested", version}});
    peer.version = std::string(version.get_string());
    auto* capabilities = meta.if_contains(meta_keys::client_capabilities);
    if (!capabilities || !capabilities->is_object())
        co_return Reply::failure(error_code::invalid_params, "Invalid params: missing required _meta \"" +
                                                                 std::string(meta_keys::client_capabilities) +
                                                                 "\" (an object; {} when the client has none)");
    peer.client_capabilities = capabilities->get_object();
    if (auto* info = meta.if_contains(meta_keys::client_info); info && info->is_object())
        peer.client_info = Implementation::from_json(info->get_object());
    if (auto* level = meta.if_contains(meta_keys::log_level)) {
        std::optional<LoggingLevel> parsed;
        if (level->is_string()) parsed = parse_logging_level(level->get_string());
        if (!parsed)
            co_return Reply::failure(error_code::invalid_params, "Invalid params: _meta \"" +
                                                                     std::string(meta_keys::log_level) +
                                                                     "\" must be a logging level such as \"info\"");
        peer.log_level = parsed;
    }

    json::object result = co_await run_method(*method, request, peer);
    // Every 2026 result says what it is, and who answered.
    if (!result.contains("resultType")) result["resultType"] = "complete";
    json::value& meta_value = result["_meta"];
    if (!meta_value.is_object()) meta_value.emplace_object();
    json::object& result_meta = meta_value.get_object();
    if (!result_meta.contains(meta_keys::server_info)) result_meta[meta_keys::server_info] = state_->info_json;
    co_return Reply::success(std::move(result));
}

json::object ServerSession::discover_result() const {
    json::object result{{"supportedVersions", supported_stateless_versions()},
                        {"capabilities", state_->capabilities(true)},
                        {"ttlMs", state_->options.list_cache.ttl_ms},
                        {"cacheScope", state_->options.list_cache.scope}};
    if (state_->options.instructions) result["instructions"] = *state_->options.instructions;
    return result;
}

asio::awaitable<json::object> ServerSession::listen(jsonrpc::InboundRequest& request, const PeerView&) {
    const json::object& params = params_object(request.params);
    auto* filter_value = params.if_contains("notifications");
    if (!filter_value || !filter_value->is_object())
        throw Error::invalid_params("Invalid params: \"notifications\" is required: an object such as "
                                    "{\"toolsListChanged\": true}");
    const json::object& filter = filter_value->get_object();
    json::object capabilities = state_->capabilities(true);
    auto has = [&](std::string_view feature, std::string_view flag) {
        auto* f = capabilities.if_contains(feature);
        return f && f->is_object() && f->get_object().contains(flag);
    };
    auto wants = [&](std::string_view key) {
        auto* v = filter.if_contains(key);
        return v && v->is_bool() && v->get_bool();
    };
    auto subscription = std::make_shared<ListenSubscription>();
    subscription->id = request.id;
    subscription->cancellation = request.cancellation;
    json::object honoured;
    if (wants("toolsListChanged") && has("tools", "listChanged")) {
        subscription->tools_list_changed = true;
        honoured["toolsListChanged"] = true;
    }
    if (wants("promptsListChanged") && has("prompts", "listChanged")) {
        subscription->prompts_list_changed = true;
        honoured["promptsListChanged"] = true;
    }
    if (wants("resourcesListChanged") && has("resources", "listChanged")) {
        subscription->resources_list_changed = true;
        honoured["resourcesListChanged"] = true;
    }
    if (auto* uris = filter.if_contains("resourceSubscriptions"); uris && has("resources", "subscribe")) {
        if (!uris->is_array())
            throw Error::invalid_params("Invalid params: \"notifications.resourceSubscriptions\" must be an array of URIs");
        json::array kept;
        for (const auto& uri : uris->get_array()) {
            if (!uri.is_string())
                throw Error::invalid_params("Invalid params: \"notifications.resourceSubscriptions\" must hold strings");
            subscription->resource_uris.insert(std::string(uri.get_string()));
            kept.push_back(uri);
        }
        honoured["resourceSubscriptions"] = std::move(kept);
    }
    // The acknowledgement comes first; then the stream stays open until the client cancels it.
    send_notification(notifications::subscriptions_acknowledged,
                      json::object{{"_meta", {{meta_keys::subscription_id, request.id.to_json()}}},
                                   {"notifications", honoured}},
                      &request.id);
    listeners_.push_back(subscription);

    auto executor = co_await asio::this_coro::executor;
    // Shared: the cancellation callback posts work that may outlive this frame.
    auto wait = std::make_shared<asio::steady_timer>(executor, asio::steady_timer::time_point::max());
    auto hook = request.cancellation.on_cancel([wait, executor] { asio::post(executor, [wait] { wait->cancel(); }); });
    co_await wait->async_wait(asio::as_tuple(asio::use_awaitable));
    request.cancellation.forget(hook);
    std::erase(listeners_, subscription);
    co_return json::object{{"_meta", {{meta_keys::subscription_id, request.id.to_json()}}}};
}

void ServerSession::handle_notification(jsonrpc::Notification& notification) {
    if (notification.method == notifications::initialized) return;
    if (notification.method == notifications::cancelled) {
        if (!notification.params.is_object()) return;
        const auto& params = notification.params.get_object();
        jsonrpc::RequestId id;
        auto* request_id = params.if_contains("requestId");
        if (!request_id || !jsonrpc::RequestId::from_json(*request_id, id)) return;
        std::string reason;
        if (auto* r = params.if_contains("reason"); r && r->is_string()) reason = std::string(r->get_string());
        if (auto connection = connection_.lock()) connection->cancel_inbound(id, reason);
        return;
    }
    if (notification.method == notifications::roots_list_changed) {
        if (state_->options.on_roots_list_changed) state_->options.on_roots_list_changed();
        return;
    }
    if (notification.method == notifications::progress) {
        // Progress on one of our requests to the client: it is alive, so give it more time.
        if (!notification.params.is_object()) return;
        auto* token = notification.params.get_object().if_contains("progressToken");
        jsonrpc::RequestId id;
        if (token && jsonrpc::RequestId::from_json(*token, id))
            if (auto connection = connection_.lock()) connection->extend_deadline(id);
    }
}

void ServerSession::input_ended() {
    // A listen stream lasts until the client cancels it; a client that has gone cannot.
    auto connection = connection_.lock();
    if (!connection) return;
    for (const auto& listener : std::vector(listeners_)) connection->cancel_inbound(listener->id, "input ended");
}

void ServerSession::send_notification(std::string_view method, const json::value& params,
                                      const jsonrpc::RequestId* related) const {
    if (auto connection = connection_.lock()) connection->notify(method, params, jsonrpc::FrameInfo{related});
}

void ServerSession::close_request_stream(const jsonrpc::RequestId& id) const {
    auto connection = connection_.lock();
    if (!connection) return;
    // Only a transport with a stream per request has one to end; the others have nothing to do.
    if (auto* streams = dynamic_cast<http::RequestStreamControl*>(&connection->channel())) streams->close_request_stream(id);
}

asio::awaitable<jsonrpc::Response> ServerSession::call_client(std::string_view method, json::object params,
                                                              const jsonrpc::RequestId& related,
                                                              const CancellationToken& cancellation) const {
    auto connection = connection_.lock();
    if (!connection)
        co_return jsonrpc::Response{{}, nullptr,
                                    jsonrpc::ErrorObject{error_code::connection_closed, "Connection closed", nullptr}};
    jsonrpc::CallOptions options;
    options.timeout = state_->options.client_request_timeout;
    options.cancellation = cancellation;
    options.related_request = related;
    co_return co_await connection->call(method, std::move(params), std::move(options));
}

void ServerSession::list_changed(ListKind kind) {
    const char* method = kind == ListKind::tools       ? notifications::tools_list_changed
                         : kind == ListKind::resources ? notifications::resources_list_changed
                                                       : notifications::prompts_list_changed;
    if (initialized_) send_notification(method, nullptr, nullptr);
    for (const auto& listener : listeners_) {
        bool wanted = kind == ListKind::tools       ? listener->tools_list_changed
                      : kind == ListKind::resources ? listener->resources_list_changed
                                                    : listener->prompts_list_changed;
        if (!wanted || listener->cancellation.cancelled()) continue;
        send_notification(method, json::object{{"_meta", {{meta_keys::subscription_id, listener->id.to_json()}}}},
                          &listener->id);
    }
}

void ServerSession::resource_updated(std::string_view uri) {
    if (initialized_ && subscribed_uris_.contains(std::string(uri)))
        send_notification(notifications::resources_updated, json::object{{"uri", uri}}, nullptr);
    for (const auto& listener : listeners_) {
        if (!listener->resource_uris.contains(std::string(uri)) || listener->cancellation.cancelled()) continue;
        send_notification(notifications::resources_updated,
                          json::object{{"_meta", {{meta_keys::subscription_id, listener->id.to_json()}}}, {"uri", uri}},
                          &listener->id);
    }
}

}  // namespace mcp::detail
