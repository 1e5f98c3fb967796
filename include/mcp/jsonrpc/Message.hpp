#pragma once
// The three kinds of JSON-RPC 2.0 message, as plain values. Nothing here knows about MCP.

#include "mcp/Export.hpp"
#include "mcp/jsonrpc/RequestId.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <variant>

namespace mcp::jsonrpc {

/// The error member of a response. `data` is null when absent.
struct MCP_API ErrorObject {
    int code = 0;  ///< The error code: one of jsonrpc::error_code, or one MCP or the application defines.
    std::string message;  ///< A short human-readable description of the error.
    /// Extra information about the error, defined by whoever sent it; null when absent.
    boost::json::value data;
};

/// A call that expects a response. `params` is null when the message had none.
struct MCP_API Request {
    RequestId id;  ///< The id the response will carry, as the caller chose it.
    std::string method;  ///< The name of the method to call, e.g. "tools/call".
    boost::json::value params;  ///< An object or an array, or null when the message had no params.
};

/// A call that expects no response.
struct MCP_API Notification {
    std::string method;  ///< The name of the notification, e.g. "notifications/progress".
    boost::json::value params;  ///< An object or an array, or null when the message had no params.
};

/// The answer to a request: a result, or an error.
struct MCP_API Response {
    /// The id of the request answered; null for an error about a message whose id could not be
    /// read.
    RequestId id;
    boost::json::value result;  ///< The result when the call succeeded; null when `error` is set.
    std::optional<ErrorObject> error;  ///< Set when the call failed.

    /// True when the response carries an error rather than a result.
    bool is_error() const { return error.has_value(); }
};

/// Any one JSON-RPC message.
using Message = std::variant<Request, Notification, Response>;

}  // namespace mcp::jsonrpc
