#pragma once
// Errors a handler throws to answer with a JSON-RPC error instead of a result.
//
// Three kinds of failure, kept apart on purpose (as the Go and Rust SDKs do):
//  - mcp::Error thrown by any handler → a JSON-RPC error response with that code;
//  - any other exception from a tool handler → a tool result with isError:true (the model sees it);
//  - any other exception elsewhere → a JSON-RPC internal error (-32603).

#include "mcp/Export.hpp"
#include "mcp/jsonrpc/ErrorCodes.hpp"

#include <boost/json/value.hpp>

#include <stdexcept>
#include <string>

namespace mcp {

/// An exception a handler throws to answer with a JSON-RPC error (this code, message and data)
/// instead of a result; any other exception becomes a tool error result or an internal error.
class MCP_API Error : public std::runtime_error {
public:
    /// An error with a JSON-RPC `code` (see jsonrpc::error_code), a message (also `what()`) and
    /// optional `data` sent along in the error object.
    Error(int code, std::string message, boost::json::value data = nullptr)
        : std::runtime_error(message), code_(code), data_(std::move(data)) {}

    /// The JSON-RPC error code sent to the peer.
    int code() const { return code_; }
    /// The optional `data` member of the error object; null when there is none.
    const boost::json::value& data() const { return data_; }

    /// A -32602 Invalid params error, for arguments that are missing or malformed.
    static Error invalid_params(std::string message, boost::json::value data = nullptr) {
        return Error(jsonrpc::error_code::invalid_params, std::move(message), std::move(data));
    }
    /// A -32601 error whose message names the unknown `method`.
    static Error method_not_found(std::string_view method) {
        return Error(jsonrpc::error_code::method_not_found, "Method not found: " + std::string(method));
    }
    /// A -32603 Internal error with the given message.
    static Error internal(std::string message) {
        return Error(jsonrpc::error_code::internal_error, std::move(message));
    }

private:
    int code_;
    boost::json::value data_;
};

}  // namespace mcp
