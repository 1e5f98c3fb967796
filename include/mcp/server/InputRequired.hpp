#pragma once
// A handler's way of asking the client for more input before it can finish (2026-07-28's
// multi-round-trip requests). Return one from a tool, prompt or resource handler; the handler is
// called again with the client's answers in RequestContext::input_response(key).
//
// The same handler serves both protocol eras: with a 2025-era client the server sends each
// input request to the client itself (elicitation/create, sampling/createMessage, roots/list)
// and calls the handler again with the answers, so handlers never need two code paths.

#include "mcp/Export.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace mcp {

/// What a handler returns to ask the client for more input before it can finish; the handler is
/// then called again with the answers in RequestContext::input_response(key). Works in both eras.
struct MCP_API InputRequired {
    boost::json::object input_requests;       ///< key -> {"method": …, "params": …}
    std::optional<std::string> request_state;  ///< opaque; echoed back by the client

    /// Asks the user through a form (elicitation/create in form mode).
    InputRequired& elicit(std::string_view key, std::string_view message, boost::json::object requested_schema);
    /// Sends the user to a URL (elicitation/create in URL mode), e.g. for a sign-in or a payment.
    InputRequired& elicit_url(std::string_view key, std::string_view message, std::string_view url);
    /// Asks the client's model (sampling/createMessage); `params` as in the spec, tools included.
    InputRequired& sample(std::string_view key, boost::json::object params);
    /// Asks for the client's roots (roots/list).
    InputRequired& roots(std::string_view key);
    /// Sets request_state: text the client echoes back with its answers, for the handler's next round.
    InputRequired& state(std::string state);

    /// The result object, {"inputRequests": …, "requestState": …}, leaving out what is empty.
    boost::json::object to_json() const;
};

/// What a tool, prompt or resource handler produces: its result, or a request for input.
template <class Result>
using Outcome = std::variant<Result, InputRequired>;

}  // namespace mcp
