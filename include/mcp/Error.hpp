#pragma once
// Errors a handler throws to answer with a JSON-RPC error instead of a result.
//
// Three kinds of failure, kept apart on purpose (as the Go and Rust SDKs do):
//  - mcp::Error thrown by any handler → a JSON-RPC error response with that code;
//  - any other exception from a tool handler → a tool result with isError:true (the model sees it);
//  - any other exception elsewhere → a JSON-RPC internal error (-32603).

#include "mcp/jsonrpc/ErrorCodes.hpp"

#include <boost/json/value.hpp>

#include <stdexcept>
#include <string>

namespace mcp {

class Error : public std::runtime_error {
public:
    Error(int code, std::string message, boost::json::value data = nullptr)
        : std::runtime_error(message), code_(code), data_(std::move(data)) {}

    int code() const { return code_; }
    const boost::json::value& data() const { return data_; }

    static Error invalid_params(std::string message, boost::json::value data = nullptr) {
        return Error(jsonrpc::error_code::invalid_params, std::move(message), std::move(data));
    }
    static Error method_not_found(std::string_view method) {
        return Error(jsonrpc::error_code::method_not_found, "Method not found: " + std::string(method));
    }
    static Error internal(std::string message) {
        return Error(jsonrpc::error_code::internal_error, std::move(message));
    }

private:
    int code_;
    boost::json::value data_;
};

}  // namespace mcp
