#pragma once
// A JSON-RPC request id: a string or an integer as the peer sent it, or null when a response
// must be sent for a message whose id could not be read.

#include "mcp/Export.hpp"

#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <variant>

namespace mcp::jsonrpc {

/// A JSON-RPC request id: a string, an integer, or null (only in an error response to a message
/// whose id could not be read). Compares and hashes by kind and value, so 1 and "1" differ.
class MCP_API RequestId {
public:
    RequestId() = default;  ///< The null id.
    /// An integer id (libmcp numbers its own requests from 1).
    RequestId(std::int64_t number) : value_(number) {}
    /// A string id.
    RequestId(std::string text) : value_(std::move(text)) {}
    /// A string id from a literal, so `RequestId id = "abc";` compiles (through std::string it would
    /// take two implicit conversions).
    RequestId(const char* text) : value_(std::string(text)) {}

    /// True for the null id.
    bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
    /// True for an integer id.
    bool is_number() const { return std::holds_alternative<std::int64_t>(value_); }
    /// True for a string id.
    bool is_string() const { return std::holds_alternative<std::string>(value_); }
    /// The integer; throws std::bad_variant_access unless is_number().
    std::int64_t number() const { return std::get<std::int64_t>(value_); }
    /// The string; throws std::bad_variant_access unless is_string().
    const std::string& string() const { return std::get<std::string>(value_); }

    /// The id as a JSON value: a number, a string or null.
    boost::json::value to_json() const;
    /// Reads an id as JSON-RPC allows it: a string or an integer. Anything else yields false.
    static bool from_json(const boost::json::value& json, RequestId& out);
    /// Appends the id in JSON form, for serializers that write envelopes by hand.
    void append_json(std::string& out) const;
    /// A short human form for logs and error messages: 7 or "abc".
    std::string to_display() const;

    /// Equal when both are of the same kind with the same value.
    friend bool operator==(const RequestId&, const RequestId&) = default;

private:
    friend struct std::hash<RequestId>;
    std::variant<std::monostate, std::int64_t, std::string> value_;
};

}  // namespace mcp::jsonrpc

/// Hashes a RequestId, so ids can key unordered containers (pending calls, requests in flight).
template <>
struct std::hash<mcp::jsonrpc::RequestId> {
    /// The hash of the id's kind and value.
    std::size_t operator()(const mcp::jsonrpc::RequestId& id) const noexcept {
        return std::hash<std::variant<std::monostate, std::int64_t, std::string>>{}(id.value_);
    }
};
