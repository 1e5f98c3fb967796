// The server's method table: every MCP method a client may call, with the eras that serve it, the
// feature the server must offer for it to exist, and the cache hint its 2026-07-28 result carries.
// ServerSession looks a request up here once; nothing else decides what a method name means.
// (tools/call of a plain handler may also be answered inline, see ServerTools.cpp; it runs the
// same checks and the same failure handling.)

#include "mcp/auth/AccessToken.hpp"
#include "mcp/protocol/ErrorCodes.hpp"
#include "mcp/protocol/Methods.hpp"
#include "server/RequestParams.hpp"
#include "server/ServerSession.hpp"

namespace mcp::detail {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {
constexpr unsigned session_era = 1;    // an initialized 2025-era connection
constexpr unsigned stateless_era = 2;  // a request carrying the 2026-07-28 _meta
constexpr unsigned both_eras = session_era | stateless_era;
}  // namespace

struct ServerSession::Method {
    std::string_view name;
    unsigned eras;
    Feature feature;
    CacheKind cache;
    bool before_initialize;  ///< session era: may come before initialize
    asio::awaitable<json::object> (ServerSession::*handle)(jsonrpc::InboundRequest&, const PeerView&);
};

const ServerSession::Method* ServerSession::find_method(std::string_view name) {
    using S = ServerSession;
    static const Method table[] = {
        {methods::initialize, session_era, Feature::none, CacheKind::none, true, &S::method_initialize},
        {methods::ping, session_era, Feature::none, CacheKind::none, true, &S::method_ping},
        {methods::logging_set_level, session_era, Feature::none, CacheKind::none, false, &S::method_set_level},
        {methods::resources_subscribe, session_era, Feature::resources, CacheKind::none, false, &S::method_subscribe},
        {methods::resources_unsubscribe, session_era, Feature::resources, CacheKind::none, false, &S::method_subscribe},
        {methods::server_discover, stateless_era, Feature::none, CacheKind::none, false, &S::method_discover},
        {methods::subscriptions_listen, stateless_era, Feature::none, CacheKind::none, false, &S::listen},
        {methods::tools_list, both_eras, Feature::tools, CacheKind::list, false, &S::method_list_tools},
        {methods::tools_call, both_eras, Feature::tools, CacheKind::none, false, &S::call_tool},
        {methods::resources_list, both_eras, Feature::resources, CacheKind::list, false, &S::method_list_resources},
        {methods::resources_templates_list, both_eras, Feature::resources, CacheKind::list, false,
         &S::method_list_templates},
        {methods::resources_read, both_eras, Feature::resources, CacheKind::read, false, &S::read_resource},
        {methods::prompts_list, both_eras, Feature::prompts, CacheKind::list, false, &S::method_list_prompts},
        {methods::prompts_get, both_eras, Feature::prompts, CacheKind::none, false, &S::get_prompt},
        {methods::completion_complete, both_eras, Feature::completions, CacheKind::none, false, &S::complete},
        {"tasks/get", both_eras, Feature::tasks, CacheKind::none, false, &S::method_tasks_get},
        {"tasks/cancel", both_eras, Feature::tasks, CacheKind::none, false, &S::method_tasks_cancel},
        {"tasks/update", stateless_era, Feature::tasks, CacheKind::none, false, &S::method_tasks_update},
        {"tasks/result", session_era, Feature::tasks, CacheKind::none, false, &S::method_tasks_result},
        {"tasks/list", session_era, Feature::tasks, CacheKind::none, false, &S::method_tasks_list},
    };
    for (const Method& method : table)
        if (method.name == name) return &method;
    return nullptr;
}

bool ServerSession::served_in_session_era(const Method& method) { return (method.eras & session_era) != 0; }
bool ServerSession::served_statelessly(const Method& method) { return (method.eras & stateless_era) != 0; }
bool ServerSession::allowed_before_initialize(const Method& method) { return method.before_initialize; }

bool ServerSession::offers(Feature feature) const {
    switch (feature) {
    case Feature::none: return true;
    case Feature::tools: return state_->tools.size() > 0;
    case Feature::resources: return state_->resources.size() > 0 || state_->templates.size() > 0;
    case Feature::prompts: return state_->prompts.size() > 0;
    case Feature::completions: return !state_->completions.empty();
    case Feature::tasks: return state_->tasks_offered;
    }
    return false;
}

asio::awaitable<json::object> ServerSession::run_method(const Method& method, jsonrpc::InboundRequest& request,
                                                        const PeerView& peer) {
    // A feature the server does not offer is a method it does not have.
    if (!offers(method.feature)) throw Error::method_not_found(request.method);
    json::object result = co_await (this->*method.handle)(request, peer);
    // 2026-07-28 results of lists and reads say how long they may be cached; an input request
    // (resultType set) is not a result to cache.
    if (peer.stateless && method.cache != CacheKind::none && !result.contains("resultType")) {
        const CacheHint& hint = method.cache == CacheKind::list ? state_->options.list_cache : state_->options.read_cache;
        result["ttlMs"] = hint.ttl_ms;
        // A list cut to the caller's scopes is theirs alone: no shared cache may serve it.
        bool cut = method.cache == CacheKind::list && !state_->required_scopes.empty() && auth::access_token_of(request.origin.get());
        result["cacheScope"] = cut ? std::string_view("private") : std::string_view(hint.scope);
    }
    co_return result;
}

// ---- the methods that are not features (those live in ServerFeatures.cpp and ServerTools.cpp) ----

asio::awaitable<json::object> ServerSession::method_ping(jsonrpc::InboundRequest&, const PeerView&) {
    co_return json::object();
}

asio::awaitable<json::object> ServerSession::method_set_level(jsonrpc::InboundRequest& request, const PeerView&) {
    const json::object& params = params_object(request.params);
    auto* level = params.if_contains("level");
    std::optional<LoggingLevel> parsed;
    if (level && level->is_string()) parsed = parse_logging_level(level->get_string());
    if (!parsed)
        throw Error::invalid_params("Invalid params: \"level\" must be one of debug, info, notice, warning, error, "
                                    "critical, alert, emergency");
    negotiated_.log_level = parsed;
    negotiated_.log_everything = false;
    co_return json::object();
}

asio::awaitable<json::object> ServerSession::method_subscribe(jsonrpc::InboundRequest& request, const PeerView&) {
    const json::object& params = params_object(request.params);
    auto* uri = params.if_contains("uri");
    if (!uri || !uri->is_string()) throw Error::invalid_params("Invalid params: \"uri\" must be a string");
    if (request.method == methods::resources_subscribe) subscribed_uris_.insert(std::string(uri->get_string()));
    else subscribed_uris_.erase(std::string(uri->get_string()));
    co_return json::object();
}

asio::awaitable<json::object> ServerSession::method_discover(jsonrpc::InboundRequest&, const PeerView&) {
    co_return discover_result();
}

asio::awaitable<json::object> ServerSession::method_list_tools(jsonrpc::InboundRequest& request, const PeerView& peer) {
    co_return list_tools(params_object(request.params), request.origin.get(), peer.stateless);
}

asio::awaitable<json::object> ServerSession::method_list_resources(jsonrpc::InboundRequest& request, const PeerView&) {
    co_return list_resources(params_object(request.params), request.origin.get());
}

asio::awaitable<json::object> ServerSession::method_list_templates(jsonrpc::InboundRequest& request, const PeerView&) {
    co_return list_templates(params_object(request.params));
}

asio::awaitable<json::object> ServerSession::method_list_prompts(jsonrpc::InboundRequest& request, const PeerView&) {
    co_return list_prompts(params_object(request.params), request.origin.get());
}

}  // namespace mcp::detail
