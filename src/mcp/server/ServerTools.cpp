// tools/call: arguments checked against the tool's inputSchema before its handler runs, handler
// failures turned into tool errors, structured output checked against its outputSchema. Plain
// handlers on a 2025-era connection run inline (try_handle_now), without a coroutine.

#include "mcp/protocol/Versions.hpp"
#include "mcp/server/TypedHandlers.hpp"
#include "server/HandlerRunner.hpp"

namespace mcp::detail {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// A call whose inline run asked for input: what the asynchronous part needs to carry on.
struct PendingToolCall {
    std::shared_ptr<ToolCall> call;
    Handler<CallToolResult, ToolCall> handler;
    std::optional<Outcome<CallToolResult>> outcome;
    std::shared_ptr<SchemaValidator> output_validator;
};

json::object invalid_arguments(const ToolEntry& entry, const std::string& name, const json::object& arguments,
                               const std::string& problem) {
    if (entry.on_invalid_arguments) {
        CallToolResult result = entry.on_invalid_arguments(arguments, problem);
        result.is_error = true;  // whatever the tool built, the call failed
        return result.to_json();
    }
    return CallToolResult::error("Invalid arguments for tool " + name + ": " + problem).to_json();
}

/// Moves the arguments out of the request into `arguments`; returns an error result instead when
/// they are not an object or fail the schema.
std::optional<json::object> take_arguments(json::object& params, const ToolEntry& entry, const std::string& name,
                                           json::object& arguments) {
    if (auto* a = params.if_contains("arguments"); a && !a->is_null()) {
        if (!a->is_object()) return invalid_arguments(entry, name, arguments, "\"arguments\" must be an object");
        arguments = std::move(a->get_object());  // the handler owns them now (ToolCall::arguments)
    }
    if (entry.input_validator) {
        if (auto problem = entry.input_validator->validate(arguments))
            return invalid_arguments(entry, name, arguments, *problem);
    }
    return std::nullopt;
}

}  // namespace

/// The one place where a tool handler's exception becomes an answer. mcp::Error is a protocol
/// error and propagates; arguments that do not fit a typed tool are answered like arguments that
/// break its schema; anything else is a tool failure the model reads (isError). `arguments` are
/// those of the call when still at hand (the asynchronous path has handed them to the handler).
json::object tool_failure(ServerState& state, const std::string& name, const json::object& arguments) {
    try {
        throw;
    } catch (const Error&) {
        throw;
    } catch (const InvalidArguments& e) {
        if (const ToolEntry* entry = state.tools.find(name)) return invalid_arguments(*entry, name, arguments, e.what());
        return CallToolResult::error("Invalid arguments for tool " + name + ": " + e.what()).to_json();
    } catch (const std::exception& e) {
        state.log("tool " + name + " failed: " + e.what());
        return CallToolResult::error(e.what()).to_json();
    }
}

void ServerSession::check_tool_output(const std::string& name, const SchemaValidator* validator,
                                      const json::object& result) {
    if (!validator || result.contains("resultType")) return;
    auto* is_error = result.if_contains("isError");
    if (is_error && is_error->is_bool() && is_error->get_bool()) return;
    auto* structured = result.if_contains("structuredContent");
    check_structured_output(name, *validator, structured ? std::optional<json::value>(*structured) : std::nullopt);
}

void ServerSession::check_structured_output(const std::string& name, const SchemaValidator& validator,
                                            const std::optional<json::value>& structured) {
    if (!structured)
        throw Error::internal("Tool " + name + " declares an outputSchema but returned no structuredContent");
    if (auto problem = validator.validate(*structured))
        throw Error::internal("Tool " + name + " returned structuredContent that breaks its outputSchema: " +
                              *problem);
}

std::optional<jsonrpc::Reply> ServerSession::try_handle_now(jsonrpc::InboundRequest& request) {
    // Only the common case: a 2025-era tools/call of a plain handler. Everything else, including
    // anything malformed, takes the full path, which also words the errors.
    if (!initialized_ || request.method != methods::tools_call || !request.params.is_object()) return std::nullopt;
    json::object& params = request.params.get_object();
    if (auto* meta = params.if_contains("_meta"); meta && meta->is_object() &&
                                                  meta->get_object().contains(meta_keys::protocol_version))
        return std::nullopt;
    auto* name_value = params.if_contains("name");
    if (!name_value || !name_value->is_string()) return std::nullopt;
    const ToolEntry* entry = state_->tools.find(name_value->get_string());
    if (!entry || !entry->immediate) return std::nullopt;

    std::shared_ptr<ToolCall> call;
    try {
        call = make_context<ToolCall>(request, negotiated_);  // refuses a bad _meta (a huge progressToken)
    } catch (const Error& e) {
        return jsonrpc::Reply::failure(e.code(), e.what(), e.data());
    }
    call->name = std::string(name_value->get_string());
    if (auto error = take_arguments(params, *entry, call->name, call->arguments))
        return jsonrpc::Reply::success(std::move(*error));
    try {
        Outcome<CallToolResult> outcome = entry->immediate(*call);
        if (auto* result = std::get_if<CallToolResult>(&outcome)) {
            if (entry->output_validator && !result->is_error)
                check_structured_output(call->name, *entry->output_validator, result->structured_content);
            std::string text;
            text.reserve(256);  // one allocation for a typical result, not a series of regrowths
            result->append_json(text);
            return jsonrpc::Reply::success_text(std::move(text));
        }
        // It needs the client: continue as a coroutine from this outcome (call_tool).
        request.dispatcher_state = std::make_shared<PendingToolCall>(
            PendingToolCall{std::move(call), entry->handler, std::move(outcome), entry->output_validator});
        return std::nullopt;
    } catch (const Error& e) {
        return jsonrpc::Reply::failure(e.code(), e.what(), e.data());
    } catch (const std::exception&) {
        return jsonrpc::Reply::success(tool_failure(*state_, call->name, call->arguments));
    }
}

asio::awaitable<json::object> ServerSession::call_tool(jsonrpc::InboundRequest& request, const PeerView& peer) {
    if (auto pending = std::static_pointer_cast<PendingToolCall>(request.dispatcher_state)) {
        request.dispatcher_state.reset();
        std::string name = pending->call->name;
        json::object failure;
        try {
            json::object result = co_await drive_handler<CallToolResult, ToolCall>(
                pending->handler, pending->call, request, peer, std::move(pending->outcome));
            check_tool_output(name, pending->output_validator.get(), result);
            co_return result;
        } catch (const std::exception&) {
            failure = tool_failure(*state_, name, pending->call->arguments);
        }
        co_return std::move(failure);
    }

    if (!request.params.is_object())
        throw Error::invalid_params("Invalid params: tools/call needs params {\"name\": …, \"arguments\": {…}}");
    json::object& params = request.params.get_object();
    std::string name = required_string(params, "name");
    const ToolEntry* entry = state_->tools.find(name);
    if (!entry) throw Error::invalid_params("Unknown tool: \"" + name + "\". Call tools/list for the tools this server has.");
    bool as_task = state_->tasks_offered && runs_as_task(*entry, params, peer);
    json::object arguments;
    if (auto error = take_arguments(params, *entry, name, arguments)) co_return std::move(*error);
    if (as_task) co_return co_await start_task(request, peer, *entry, std::move(arguments));
    // Copies: the entry may be removed while the handler runs.
    auto handler = entry->handler;
    auto output_validator = entry->output_validator;
    json::object result;
    try {
        result = co_await run_handler(handler, request, peer, [&](ToolCall& call) {
            call.name = name;
            call.arguments = std::move(arguments);
        });
    } catch (const std::exception&) {
        result = tool_failure(*state_, name, json::object());
        co_return result;
    }
    check_tool_output(name, output_validator.get(), result);
    co_return result;
}

}  // namespace mcp::detail
