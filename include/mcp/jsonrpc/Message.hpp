#pragma once
// The three kinds of JSON-RPC 2.0 message, as plain values. Nothing here knows about MCP.

#include "mcp/jsonrpc/RequestId.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <variant>

namespace mcp::jsonrpc {

/// The error member of a response. `data` is null when absent.
struct ErrorObject {
    int code = 0;
    std::string message;
    boost::json::value data;
};

/// A call that expects a response. `params` is null when the message had none.
struct Request {
    RequestId id;
    std::string method;
    boost::json::value params;
};

/// A call that expects no response.
struct Notification {
    std::string method;
    boost::json::value params;
};

/// The answer to a request: a result, or an error.
struct Response {
    RequestId id;
    boost::json::value result;
    std::optional<ErrorObject> error;

    bool is_error() const { return error.has_value(); }
};

using Message = std::variant<Request, Notification, Response>;

}  // namespace mcp::jsonrpc
