#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// How a session runs a feature handler: build its context, run it, and when it asks for input
// either return that to a 2026 client or (2025 era) ask the client and run it again.
// Included by the .cpp files that run handlers.

#include "mcp/protocol/Methods.hpp"
#include "mcp/protocol/ErrorCodes.hpp"
#include "server/RequestParams.hpp"
#include "server/ServerSession.hpp"

namespace mcp::detail {

inline boost::json::object to_result_json(CallToolResult&& r) { return std::move(r).to_json(); }
inline boost::json::object to_result_json(ReadResourceResult&& r) { return r.to_json(); }
inline boost::json::object to_result_json(GetPromptResult&& r) { return r.to_json(); }
inline boost::json::object to_result_json(Completion&& r) { return r.to_json(); }

/// Which client capability an input request needs; empty for a method that is not one.
inline std::string_view capability_for(std::string_view method) {
    if (method == methods::elicitation_create) return "elicitation";
    if (method == methods::sampling_create_message) return "sampling";
    if (method == methods::roots_list) return "roots";
    return {};
}

template <class Context>
std::shared_ptr<Context> ServerSession::make_context(jsonrpc::InboundRequest& request, const PeerView& peer) {
    const boost::json::object& params = params_object(request.params);
    auto context = std::make_shared<Context>(shared_from_this(), request.id, request.method, params, request.cancellation);
    context->origin_ = request.origin;
    fill_context(*context, peer, params);
    return context;
}

template <class Result, class Context, class Prepare>
boost::asio::awaitable<boost::json::object> ServerSession::run_handler(const Handler<Result, Context>& handler,
                                                                       jsonrpc::InboundRequest& request,
                                                                       const PeerView& peer, Prepare prepare) {
    auto context = make_context<Context>(request, peer);
    prepare(*context);
    co_return co_await drive_handler<Result, Context>(handler, std::move(context), request, peer, std::nullopt);
}

template <class Result, class Context>
boost::asio::awaitable<boost::json::object> ServerSession::drive_handler(Handler<Result, Context> handler,
                                                                         std::shared_ptr<Context> context,
                                                                         jsonrpc::InboundRequest& request,
                                                                         const PeerView& peer,
                                                                         std::optional<Outcome<Result>> first) {
    // The request may have moved since the context was made (an inline first run).
    context->params_ = &params_object(request.params);
    context->cancellation_ = request.cancellation;
    for (int round = 0;; ++round) {
        Outcome<Result> outcome;
        if (first) {
            outcome = std::move(*first);
            first.reset();
        } else {
            outcome = co_await handler(*context);
        }
        if (auto* result = std::get_if<Result>(&outcome)) co_return to_result_json(std::move(*result));
        auto& input = std::get<InputRequired>(outcome);
        // Never ask for what the client cannot give: that is a missing capability instead.
        for (const auto& [key, input_request] : input.input_requests) {
            std::string_view method;
            if (input_request.is_object())
                if (auto* m = input_request.get_object().if_contains("method"); m && m->is_string())
                    method = m->get_string();
            std::string_view capability = capability_for(method);
            if (capability.empty())
                throw Error::internal("Handler asked for input with unsupported method \"" + std::string(method) + "\"");
            if (!peer.client_capabilities.contains(capability))
                throw Error(mcp::error_code::missing_required_client_capability,
                            "The client must declare the " + std::string(capability) + " capability for this request",
                            boost::json::object{{"requiredCapabilities", {{capability, boost::json::object()}}}});
        }
        if (peer.stateless) {
            boost::json::object result = input.to_json();
            result["resultType"] = "input_required";
            co_return result;
        }
        if (round + 1 >= state_->options.max_input_rounds)
            throw Error::internal("Handler asked for input more than " +
                                  std::to_string(state_->options.max_input_rounds) + " times");
        // 2025 era: ask the client ourselves, then run the handler again with the answers.
        context->input_responses_ = co_await fulfil_input_requests(input.input_requests, request, peer);
        context->request_state_ = input.request_state;
    }
}

}  // namespace mcp::detail
