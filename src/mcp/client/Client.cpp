#include "mcp/client/Client.hpp"
#include "mcp/protocol/ErrorCodes.hpp"

#include "client/ClientSession.hpp"
#include "mcp/Error.hpp"
#include "mcp/protocol/Methods.hpp"
#include "mcp/protocol/Versions.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/json/parse.hpp>

namespace mcp {
namespace asio = boost::asio;
namespace json = boost::json;

Client::Client(ClientOptions options) : session_(std::make_shared<detail::ClientSession>(std::move(options))) {}

Client::~Client() {
    if (session_->connection) session_->connection->close();
}

const std::string& Client::protocol_version() const { return session_->protocol_version; }
bool Client::stateless() const { return session_->stateless; }
const json::object& Client::server_capabilities() const { return session_->server_capabilities; }
const Implementation& Client::server_info() const { return session_->server_info; }
const std::optional<std::string>& Client::instructions() const { return session_->instructions; }

asio::awaitable<void> Client::connect(std::shared_ptr<Transport> transport) {
    auto session = session_;
    const std::string& wanted = session->options.protocol_version;
    if (wanted != "auto" && !versions::is_supported(wanted))
        throw std::invalid_argument("unsupported protocol version \"" + wanted + "\": use 2024-11-05, 2025-03-26, "
                                    "2025-06-18, 2025-11-25, 2026-07-28 or auto");
    jsonrpc::ConnectionOptions options;
    options.default_timeout = session->options.request_timeout;
    std::weak_ptr<detail::ClientSession> weak = session;
    options.on_request_abandoned = [weak](const jsonrpc::RequestId& id, const std::string& reason) {
        if (auto s = weak.lock(); s && s->connection)
            s->connection->notify(notifications::cancelled, json::object{{"requestId", id.to_json()}, {"reason", reason}});
    };
    session->transport = transport;
    session->connection = std::make_shared<jsonrpc::Connection>(transport, session, std::move(options));
    asio::co_spawn(transport->executor(), session->connection->run(), asio::detached);

    if (wanted == versions::v2026_07_28 || wanted == "auto") {
        session->stateless = true;
        session->protocol_version = std::string(versions::v2026_07_28);
        try {
            RequestOptions handshake;
            handshake.timeout = session->options.connect_timeout;
            json::object result = co_await request(methods::server_discover, {}, std::move(handshake));
            session->server_capabilities = result.contains("capabilities") && result.at("capabilities").is_object()
                                               ? result.at("capabilities").get_object()
                                               : json::object();
            if (auto* meta = result.if_contains("_meta"); meta && meta->is_object())
                if (auto* info = meta->get_object().if_contains(meta_keys::server_info); info && info->is_object())
                    session->server_info = Implementation::from_json(info->get_object());
            if (auto* text = result.if_contains("instructions"); text && text->is_string())
                session->instructions = std::string(text->get_string());
            session->connected = true;
            co_return;
        } catch (const Error& e) {
            if (wanted != "auto") throw;
            // A 2025-era server: fall back to the handshake.
        }
        session->stateless = false;
    }

    std::string version = wanted == "auto" ? std::string(versions::latest_stateful) : wanted;
    session->protocol_version = version;
    json::object params{{"protocolVersion", version},
                        {"capabilities", session->capabilities()},
                        {"clientInfo", session->options.info.to_json()}};
    RequestOptions handshake;
    handshake.timeout = session->options.connect_timeout;
    json::object result = co_await request(methods::initialize, std::move(params), std::move(handshake));
    auto* answered = result.if_contains("protocolVersion");
    if (!answered || !answered->is_string() || !versions::is_stateful(answered->get_string())) {
        throw Error(error_code::invalid_request,
                    "The server answered initialize with protocol version " +
                        (answered ? json::serialize(*answered) : std::string("(none)")) + ", which mcpkit does not speak");
    }
    session->protocol_version = std::string(answered->get_string());
    if (auto* caps = result.if_contains("capabilities"); caps && caps->is_object())
        session->server_capabilities = caps->get_object();
    if (auto* info = result.if_contains("serverInfo"); info && info->is_object())
        session->server_info = Implementation::from_json(info->get_object());
    if (auto* text = result.if_contains("instructions"); text && text->is_string())
        session->instructions = std::string(text->get_string());
    session->connection->set_allow_batches(versions::allows_batches(session->protocol_version));
    session->connection->notify(notifications::initialized, nullptr);
    session->connected = true;
}

asio::awaitable<void> Client::close() {
    auto session = session_;
    if (!session->connection) co_return;
    session->connection->close();
    session->connected = false;
    co_return;
}

void Client::notify(std::string_view method, json::object params) {
    if (!session_->connection) throw Error(error_code::connection_closed, "Not connected");
    session_->connection->notify(method, params.empty() ? json::value(nullptr) : json::value(std::move(params)));
}

namespace {
bool offers_version(const json::value& data, std::string_view version) {
    auto* supported = data.is_object() ? data.get_object().if_contains("supported") : nullptr;
    if (!supported || !supported->is_array()) return false;
    for (const auto& item : supported->get_array())
        if (item.is_string() && item.get_string() == version) return true;
    return false;
}
}  // namespace

asio::awaitable<json::object> Client::request(std::string_view method, json::object params, RequestOptions options) {
    auto session = session_;
    if (!session->connection) throw Error(error_code::connection_closed, "Not connected: call connect() first");
    if (session->stateless) {
        json::value& meta_value = params["_meta"];
        if (!meta_value.is_object()) meta_value.emplace_object();
        json::object& meta = meta_value.get_object();
        meta[meta_keys::protocol_version] = session->protocol_version;
        meta[meta_keys::client_capabilities] = session->capabilities();
        meta[meta_keys::client_info] = session->options.info.to_json();
    }
    std::int64_t progress_token = 0;
    if (options.on_progress) {
        progress_token = session->next_progress_token++;
        json::value& meta_value = params["_meta"];
        if (!meta_value.is_object()) meta_value.emplace_object();
        meta_value.get_object()["progressToken"] = progress_token;
        session->progress_listeners[progress_token] =
            detail::ProgressListener{options.on_progress, {}, options.reset_timeout_on_progress};
    }
    struct ForgetProgress {
        std::shared_ptr<detail::ClientSession> session;
        std::int64_t token;
        ~ForgetProgress() {
            if (token) session->progress_listeners.erase(token);
        }
    } forget{session, progress_token};
    // The caller is named by this request's id, round by round, while it is in flight.
    const std::any* caller = options.caller.has_value() ? &options.caller : nullptr;
    struct ForgetCaller {
        std::shared_ptr<detail::ClientSession> session;
        std::optional<jsonrpc::RequestId> id;
        ~ForgetCaller() {
            if (id) session->callers.erase(*id);
        }
    } forget_caller{session, std::nullopt};

    bool version_retried = false;
    for (int round = 0;; ++round) {
        jsonrpc::CallOptions call;
        call.timeout = options.timeout;
        call.cancellation = options.cancellation;
        if (progress_token || caller)
            call.on_id_assigned = [session, progress_token, caller, &forget_caller](const jsonrpc::RequestId& id) {
                if (progress_token) session->progress_listeners[progress_token].request_id = id;
                if (caller) {
                    if (forget_caller.id) session->callers.erase(*forget_caller.id);
                    session->callers[id] = caller;
                    forget_caller.id = id;
                }
            };
        jsonrpc::Response response = co_await session->connection->call(method, params, std::move(call));
        if (response.error && response.error->code == error_code::unsupported_protocol_version && session->stateless &&
            !version_retried && offers_version(response.error->data, session->protocol_version)) {
            // SEP-2575: the server lists what it supports; ours is among them, so try again with it
            // (a server may refuse a first request whatever it carries).
            version_retried = true;
            --round;
            continue;
        }
        if (response.error) throw Error(response.error->code, response.error->message, response.error->data);
        if (!response.result.is_object())
            throw Error(error_code::internal_error, "The server answered " + std::string(method) + " with a non-object result");
        json::object result = std::move(response.result.get_object());
        auto* type = result.if_contains("resultType");
        if (!type || !type->is_string() || type->get_string() != "input_required") co_return result;

        // Multi-round-trip: answer what the server asked and send the same request again.
        if (round + 1 >= session->options.max_input_rounds)
            throw Error(error_code::internal_error, "The server asked for input more than " +
                                                        std::to_string(session->options.max_input_rounds) + " times");
        json::object responses;
        if (auto* requests = result.if_contains("inputRequests"); requests && requests->is_object()) {
            for (const auto& [key, input] : requests->get_object()) {
                if (!input.is_object() || !input.get_object().contains("method"))
                    throw Error(error_code::invalid_params, "Input request \"" + std::string(key) + "\" has no method");
                const auto& spec = input.get_object();
                static const json::object no_params;
                const json::object& input_params =
                    spec.contains("params") && spec.at("params").is_object() ? spec.at("params").get_object() : no_params;
                ServerRequestContext context;  // not a braced temporary: g++ 12 and co_await
                context.caller = options.caller;
                responses[key] = co_await session->answer(spec.at("method").as_string(), input_params, context);
            }
        }
        params["inputResponses"] = std::move(responses);
        if (auto* state = result.if_contains("requestState"); state && state->is_string()) {
            params["requestState"] = *state;
        } else {
            params.erase("requestState");
        }
    }
}

asio::awaitable<void> Client::ping() { co_await request(methods::ping); }

namespace {
/// About the memory a JSON value holds: its strings and keys, and a node's overhead for each value.
/// Iterative, as a page's nesting is the server's to choose.
std::size_t memory_footprint(const json::value& root) {
    constexpr std::size_t per_node = sizeof(json::value);
    std::size_t total = 0;
    std::vector<const json::value*> pending{&root};
    while (!pending.empty()) {
        const json::value* value = pending.back();
        pending.pop_back();
        total += per_node;
        if (value->is_string()) {
            total += value->get_string().size();
        } else if (value->is_array()) {
            for (const auto& item : value->get_array()) pending.push_back(&item);
        } else if (value->is_object()) {
            for (const auto& [key, item] : value->get_object()) {
                total += key.size() + per_node;
                pending.push_back(&item);
            }
        }
    }
    return total;
}
}  // namespace

asio::awaitable<std::vector<json::object>> Client::list_all(std::string_view method, std::string_view key) {
    std::vector<json::object> items;
    std::size_t held = 0;
    std::optional<std::string> cursor;
    const std::size_t limit = session_->options.max_list_bytes;
    for (int page = 0; page < 10000; ++page) {
        json::object params;
        if (cursor) params["cursor"] = *cursor;
        json::object result = co_await request(method, std::move(params));
        if (auto* list = result.if_contains(key); list && list->is_array()) {
            for (auto& item : list->get_array()) {
                if (!item.is_object()) continue;
                held += memory_footprint(item);
                if (held > limit)
                    throw Error(error_code::internal_error,
                                "The server's " + std::string(method) + " holds more than " + std::to_string(limit) +
                                    " bytes after " + std::to_string(items.size()) +
                                    " items; it was not kept (ClientOptions::max_list_bytes sets the limit)");
                items.push_back(std::move(item.get_object()));
            }
        }
        auto* next = result.if_contains("nextCursor");
        if (!next || !next->is_string() || next->get_string().empty()) break;
        // A server that hands back the cursor it was given would page for ever.
        if (cursor && *cursor == next->get_string()) {
            if (session_->options.log)
                session_->options.log("the server's " + std::string(method) + " gave back the cursor it was sent; "
                                      "the list stops at " + std::to_string(items.size()) + " items");
            break;
        }
        cursor = std::string(next->get_string());
    }
    co_return items;
}

asio::awaitable<std::vector<Tool>> Client::list_tools() {
    std::vector<Tool> tools;
    for (const auto& item : co_await list_all(methods::tools_list, "tools")) {
        Tool tool = Tool::from_json(item);
        session_->tools_listed = true;
        if (auto* support = tool.execution.if_contains("taskSupport"); support && support->is_string())
            session_->tool_task_support[tool.name] = std::string(support->get_string());
        // SEP-2243: a tool whose x-mcp-header annotations are unusable must not be offered.
        if (auto problem = header_annotation_problem(tool.input_schema)) {
            if (session_->options.log) session_->options.log("ignored tool " + tool.name + ": " + *problem);
            continue;
        }
        tools.push_back(std::move(tool));
    }
    co_return tools;
}

asio::awaitable<CallToolResult> Client::call_tool(std::string_view name, json::object arguments, RequestOptions options) {
    // (Params are built before co_await: g++ 12 miscompiles initializer lists inside co_await.)
    json::object params{{"name", name}, {"arguments", std::move(arguments)}};
    std::string tool_name(name);  // `name` may not outlive the first suspension
    // 2025-11-25: a task is asked for, per call, for tools that may run as one.
    if (session_->options.tasks && !session_->stateless && session_->server_does_task_calls()) {
        // Which tools may run as tasks is in tools/list: read it once if the caller has not.
        if (!session_->tools_listed) co_await list_tools();
        auto support = session_->tool_task_support.find(tool_name);
        if (support != session_->tool_task_support.end() && support->second != "forbidden")
            params["task"] = json::object();
    }
    RequestOptions poll_options = options;
    json::object result = co_await request(methods::tools_call, std::move(params), std::move(options));
    bool created = session_->stateless ? result.contains("resultType") && result.at("resultType") == "task"
                                       : result.contains("task") && result.at("task").is_object();
    if (created) result = co_await follow_task(std::move(result), poll_options);
    co_return CallToolResult::from_json(result);
}

asio::awaitable<std::vector<Resource>> Client::list_resources() {
    std::vector<Resource> out;
    for (const auto& item : co_await list_all(methods::resources_list, "resources")) out.push_back(Resource::from_json(item));
    co_return out;
}

asio::awaitable<std::vector<ResourceTemplate>> Client::list_resource_templates() {
    std::vector<ResourceTemplate> out;
    for (const auto& item : co_await list_all(methods::resources_templates_list, "resourceTemplates"))
        out.push_back(ResourceTemplate::from_json(item));
    co_return out;
}

asio::awaitable<std::vector<ResourceContents>> Client::read_resource(std::string_view uri) {
    json::object params{{"uri", uri}};
    json::object result = co_await request(methods::resources_read, std::move(params));
    std::vector<ResourceContents> out;
    if (auto* contents = result.if_contains("contents"); contents && contents->is_array())
        for (const auto& item : contents->get_array())
            if (item.is_object()) out.push_back(ResourceContents::from_json(item.get_object()));
    co_return out;
}

asio::awaitable<void> Client::subscribe_resource(std::string_view uri) {
    json::object params{{"uri", uri}};
    co_await request(methods::resources_subscribe, std::move(params));
}

asio::awaitable<void> Client::unsubscribe_resource(std::string_view uri) {
    json::object params{{"uri", uri}};
    co_await request(methods::resources_unsubscribe, std::move(params));
}

asio::awaitable<std::vector<Prompt>> Client::list_prompts() {
    std::vector<Prompt> out;
    for (const auto& item : co_await list_all(methods::prompts_list, "prompts")) out.push_back(Prompt::from_json(item));
    co_return out;
}

asio::awaitable<GetPromptResult> Client::get_prompt(std::string_view name, json::object arguments) {
    json::object params{{"name", name}, {"arguments", std::move(arguments)}};
    co_return GetPromptResult::from_json(co_await request(methods::prompts_get, std::move(params)));
}

asio::awaitable<Completion> Client::complete(std::string_view reference_type, std::string_view reference,
                                               std::string_view argument, std::string_view value) {
    json::object ref{{"type", reference_type}};
    ref[reference_type == "ref/prompt" ? "name" : "uri"] = reference;
    json::object params{{"ref", std::move(ref)}, {"argument", {{"name", argument}, {"value", value}}}};
    co_return Completion::from_json(co_await request(methods::completion_complete, std::move(params)));
}

asio::awaitable<void> Client::set_logging_level(std::string_view level) {
    json::object params{{"level", level}};
    co_await request(methods::logging_set_level, std::move(params));
}

void Client::roots_changed(std::vector<Root> roots) {
    session_->options.roots = std::move(roots);
    if (!session_->stateless && session_->connection) notify(notifications::roots_list_changed);
}

namespace detail {

const json::value& structured_result(std::string_view tool, CallToolResult& result) {
    auto first_text = [&]() -> std::string {
        for (const auto& block : result.content)
            if (block.type() == "text")
                if (auto* text = block.json.if_contains("text"); text && text->is_string()) return std::string(text->get_string());
        return {};
    };
    if (result.is_error) {
        std::string text = first_text();
        throw ToolError(std::string(tool), text.empty() ? "no message" : text, std::move(result));
    }
    if (result.structured_content) return *result.structured_content;
    // A server that predates structured output may still put the JSON in its text.
    boost::system::error_code ec;
    json::value parsed = json::parse(first_text(), ec);
    if (ec || !parsed.is_object())
        throw std::runtime_error("tool " + std::string(tool) + " returned no structuredContent to read a typed result from");
    result.structured_content = std::move(parsed);
    return *result.structured_content;
}

}  // namespace detail
}  // namespace mcp
