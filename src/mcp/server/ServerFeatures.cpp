// The feature methods of a session: tools, resources, prompts and completion, the same for both
// protocol eras except where the era decides (error codes, input requests).

#include "mcp/auth/AccessToken.hpp"
#include "mcp/protocol/Methods.hpp"
#include "mcp/protocol/ErrorCodes.hpp"
#include "mcp/protocol/Versions.hpp"
#include "mcp/Error.hpp"
#include "server/HandlerRunner.hpp"

#include <charconv>
#include <functional>

namespace mcp::detail {
namespace asio = boost::asio;
namespace json = boost::json;
namespace error_code = mcp::error_code;

namespace {

constexpr std::size_t max_progress_token_bytes = 1024;

/// One page of a list, by an opaque cursor that is the start index.
template <class Entry>
json::object list_page(const Registry<Entry>& registry, const json::object& params, std::size_t page_size,
                       std::string_view key, const std::function<bool(const std::string&)>& visible = {},
                       json::object Entry::*listed = &Entry::listed) {
    std::size_t start = 0;
    if (auto* cursor = params.if_contains("cursor"); cursor && !cursor->is_null()) {
        std::string_view text = cursor->is_string() ? std::string_view(cursor->get_string()) : std::string_view();
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), start);
        if (text.empty() || ec != std::errc() || end != text.data() + text.size() || start > registry.size())
            throw Error::invalid_params("Invalid params: \"cursor\" is not a cursor this server gave out");
    }
    const auto& order = registry.order();
    std::size_t stop = page_size == 0 ? order.size() : std::min(order.size(), start + page_size);
    json::array items;
    items.reserve(stop - start);
    for (std::size_t i = start; i < stop; ++i)
        if (!visible || visible(order[i])) items.push_back(registry.find(order[i])->*listed);
    json::object result{{key, std::move(items)}};
    if (stop < order.size()) result["nextCursor"] = std::to_string(stop);
    return result;
}

std::unordered_map<std::string, std::string> string_map(const json::object& object, std::string_view field) {
    std::unordered_map<std::string, std::string> out;
    for (const auto& [key, value] : object) {
        if (!value.is_string())
            throw Error::invalid_params("Invalid params: \"" + std::string(field) + "." + std::string(key) +
                                        "\" must be a string");
        out.emplace(std::string(key), std::string(value.get_string()));
    }
    return out;
}

}  // namespace

/// For a caller with a token: whether it holds the scopes an item needs (Server::require_scopes).
std::function<bool(const std::string&)> ServerSession::visible_to(const jsonrpc::MessageOrigin* origin,
                                                                   ScopedItem item) const {
    const auth::AccessToken* token = auth::access_token_of(origin);
    if (!token || state_->required_scopes.empty()) return {};
    return [this, token, item](const std::string& name) {
        auto* scopes = state_->scopes_for(item, name);
        return !scopes || token->has_scopes(*scopes);
    };
}

json::object ServerSession::list_tools(const json::object& params, const jsonrpc::MessageOrigin* origin,
                                       bool stateless) const {
    return list_page(state_->tools, params, state_->options.page_size, "tools", visible_to(origin, ScopedItem::tool),
                     stateless ? &ToolEntry::listed_stateless : &ToolEntry::listed);
}
json::object ServerSession::list_resources(const json::object& params, const jsonrpc::MessageOrigin* origin) const {
    return list_page(state_->resources, params, state_->options.page_size, "resources",
                     visible_to(origin, ScopedItem::resource));
}
json::object ServerSession::list_templates(const json::object& params) const {
    return list_page(state_->templates, params, state_->options.page_size, "resourceTemplates");
}
json::object ServerSession::list_prompts(const json::object& params, const jsonrpc::MessageOrigin* origin) const {
    return list_page(state_->prompts, params, state_->options.page_size, "prompts", visible_to(origin, ScopedItem::prompt));
}

void ServerSession::fill_context(RequestContext& context, const PeerView& peer, const json::object& params) const {
    context.protocol_version_ = peer.version;
    context.client_capabilities_ = &peer.client_capabilities;
    context.client_info_ = &peer.client_info;
    context.log_level_ = peer.log_level;
    context.log_everything_ = peer.log_everything;
    if (auto* meta = params.if_contains("_meta"); meta && meta->is_object())
        if (auto* token = meta->get_object().if_contains("progressToken"); token && (token->is_string() || token->is_number())) {
            // Every progress notification carries the token, and a session's stream keeps its
            // events for replay: a token of megabytes would be copied a thousand times.
            if (token->is_string() && token->get_string().size() > max_progress_token_bytes)
                throw Error::invalid_params("Invalid params: \"_meta.progressToken\" is longer than " +
                                            std::to_string(max_progress_token_bytes) +
                                            " bytes; use a short string or an integer");
            context.progress_token_ = *token;
        }
    if (auto* responses = params.if_contains("inputResponses"); responses && !responses->is_null()) {
        if (!responses->is_object())
            throw Error::invalid_params("Invalid params: \"inputResponses\" must be an object keyed by input request");
        for (const auto& [key, value] : responses->get_object())
            if (!value.is_object())
                throw Error::invalid_params("Invalid params: \"inputResponses." + std::string(key) +
                                            "\" must be the result object of the input request");
        context.input_responses_ = responses->get_object();
    }
    if (auto* state = params.if_contains("requestState"); state && !state->is_null()) {
        if (!state->is_string()) throw Error::invalid_params("Invalid params: \"requestState\" must be a string");
        context.request_state_ = std::string(state->get_string());
    }
}

asio::awaitable<json::object> ServerSession::fulfil_input_requests(const json::object& input_requests,
                                                                   const jsonrpc::InboundRequest& request,
                                                                   const PeerView& peer) {
    json::object responses;
    for (const auto& [key, input_request] : input_requests) {
        const json::object& spec = input_request.get_object();
        std::string method(spec.at("method").get_string());
        json::object call_params;
        if (auto* p = spec.if_contains("params"); p && p->is_object()) call_params = p->get_object();
        if (method == methods::elicitation_create && !versions::has_elicitation(peer.version))
            throw Error::internal("Elicitation needs protocol 2025-06-18 or later; this client speaks " + peer.version);
        jsonrpc::Response response = co_await call_client(method, std::move(call_params), request.id, request.cancellation);
        if (response.error) {
            throw Error(response.error->code, "The client failed " + method + ": " + response.error->message,
                        response.error->data);
        }
        if (!response.result.is_object())
            throw Error::internal("The client answered " + method + " with a non-object result");
        responses[key] = std::move(response.result);
    }
    co_return responses;
}

asio::awaitable<json::object> ServerSession::read_resource(jsonrpc::InboundRequest& request, const PeerView& peer) {
    const json::object& params = params_object(request.params);
    std::string uri = required_string(params, "uri");
    const Handler<ReadResourceResult, ResourceRead>* handler = nullptr;
    std::unordered_map<std::string, std::string> variables;
    if (const ResourceEntry* entry = state_->resources.find(uri)) {
        handler = &entry->handler;
    } else {
        for (const auto& name : state_->templates.order()) {
            const TemplateEntry* t = state_->templates.find(name);
            if (auto match = t->matcher.match(uri)) {
                handler = &t->handler;
                variables = std::move(*match);
                break;
            }
        }
    }
    if (!handler) {
        int code = peer.stateless ? error_code::invalid_params : error_code::resource_not_found_2025;
        throw Error(code, "Resource not found: " + uri, json::object{{"uri", uri}});
    }
    auto handler_copy = *handler;
    json::object result;
    try {
        result = co_await run_handler(handler_copy, request, peer, [&](ResourceRead& read) {
            read.uri = uri;
            read.variables = std::move(variables);
        });
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        throw Error::internal("Reading " + uri + " failed: " + e.what());
    }
    if (auto* contents = result.if_contains("contents"); contents && contents->is_array() && contents->get_array().empty())
        throw Error(peer.stateless ? error_code::invalid_params : error_code::resource_not_found_2025,
                    "Resource not found: " + uri, json::object{{"uri", uri}});
    co_return result;
}

asio::awaitable<json::object> ServerSession::get_prompt(jsonrpc::InboundRequest& request, const PeerView& peer) {
    const json::object& params = params_object(request.params);
    std::string name = required_string(params, "name");
    const PromptEntry* entry = state_->prompts.find(name);
    if (!entry) throw Error::invalid_params("Unknown prompt: \"" + name + "\". Call prompts/list for the prompts this server has.");
    std::unordered_map<std::string, std::string> arguments;
    if (auto* a = params.if_contains("arguments"); a && !a->is_null()) {
        if (!a->is_object()) throw Error::invalid_params("Invalid params: \"arguments\" must be an object of strings");
        arguments = string_map(a->get_object(), "arguments");
    }
    for (const auto& argument : entry->prompt.arguments)
        if (argument.required && !arguments.contains(argument.name))
            throw Error::invalid_params("Invalid params: prompt \"" + name + "\" needs argument \"" + argument.name + "\"");
    auto handler = entry->handler;
    try {
        co_return co_await run_handler(handler, request, peer, [&](PromptGet& get) {
            get.name = name;
            get.arguments = std::move(arguments);
        });
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        throw Error::internal("Prompt " + name + " failed: " + e.what());
    }
}

asio::awaitable<json::object> ServerSession::complete(jsonrpc::InboundRequest& request, const PeerView& peer) {
    const json::object& params = params_object(request.params);
    auto* ref = params.if_contains("ref");
    if (!ref || !ref->is_object()) throw Error::invalid_params("Invalid params: \"ref\" must be an object");
    std::string type = required_string(ref->get_object(), "type");
    std::string reference;
    if (type == "ref/prompt") {
        reference = required_string(ref->get_object(), "name");
    } else if (type == "ref/resource") {
        reference = required_string(ref->get_object(), "uri");
    } else {
        throw Error::invalid_params("Invalid params: \"ref.type\" must be \"ref/prompt\" or \"ref/resource\"");
    }
    auto* argument = params.if_contains("argument");
    if (!argument || !argument->is_object())
        throw Error::invalid_params("Invalid params: \"argument\" must be an object with \"name\" and \"value\"");
    std::string argument_name = required_string(argument->get_object(), "name");
    std::string value = required_string(argument->get_object(), "value");
    std::unordered_map<std::string, std::string> context_arguments;
    if (auto* context = params.if_contains("context"); context && context->is_object())
        if (auto* args = context->get_object().if_contains("arguments"); args && args->is_object())
            context_arguments = string_map(args->get_object(), "context.arguments");

    auto it = state_->completions.find({type, reference});
    if (it == state_->completions.end()) {
        // Known prompts and templates without a completer complete to nothing.
        bool known = type == "ref/prompt" ? state_->prompts.find(reference) != nullptr
                                          : state_->templates.find(reference) != nullptr;
        if (!known) throw Error::invalid_params("Invalid params: nothing to complete for " + type + " \"" + reference + "\"");
        co_return Completion{}.to_json();
    }
    auto handler = it->second;
    co_return co_await run_handler(handler, request, peer, [&](CompletionRequest& completion) {
        completion.reference_type = type;
        completion.reference = reference;
        completion.argument = argument_name;
        completion.value = value;
        completion.context_arguments = std::move(context_arguments);
    });
}

}  // namespace mcp::detail
