#pragma once
// A JSON-RPC request id: a string or an integer as the peer sent it, or null when a response
// must be sent for a message whose id could not be read.

#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <variant>

namespace mcp::jsonrpc {

class RequestId {
public:
    RequestId() = default;  // null
    RequestId(std::int64_t number) : value_(number) {}
    RequestId(std::string text) : value_(std::move(text)) {}
    RequestId(const char* text) : value_(std::string(text)) {}

    bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
    bool is_number() const { return std::holds_alternative<std::int64_t>(value_); }
    bool is_string() const { return std::holds_alternative<std::string>(value_); }
    std::int64_t number() const { return std::get<std::int64_t>(value_); }
    const std::string& string() const { return std::get<std::string>(value_); }

    boost::json::value to_json() const;
    /// Reads an id as JSON-RPC allows it: a string or an integer. Anything else yields false.
    static bool from_json(const boost::json::value& json, RequestId& out);
    /// Appends the id in JSON form, for serializers that write envelopes by hand.
    void append_json(std::string& out) const;
    /// A short human form for logs and error messages: 7 or "abc".
    std::string to_display() const;

    friend bool operator==(const RequestId&, const RequestId&) = default;

private:
    friend struct std::hash<RequestId>;
    std::variant<std::monostate, std::int64_t, std::string> value_;
};

}  // namespace mcp::jsonrpc

template <>
struct std::hash<mcp::jsonrpc::RequestId> {
    std::size_t operator()(const mcp::jsonrpc::RequestId& id) const noexcept {
        return std::hash<std::variant<std::monostate, std::int64_t, std::string>>{}(id.value_);
    }
};
