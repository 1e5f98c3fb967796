#pragma once
// Reading optional fields of JSON objects leniently: a missing or mistyped field reads as empty
// or zero. For JSON whose fields are optional by design (protocol types, stored entries written by
// another version, telemetry from many page types), where a wrong type is not worth an error;
// input that must be checked names its field in an error instead.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::json_fields {

/// The string at `key`, or empty.
inline std::string text(const boost::json::object& object, std::string_view key) {
    if (auto* value = object.if_contains(key); value && value->is_string()) return std::string(value->get_string());
    return {};
}

/// The string at `key`, or nothing when it is missing or not a string.
inline std::optional<std::string> optional_text(const boost::json::object& object, std::string_view key) {
    if (auto* value = object.if_contains(key); value && value->is_string()) return std::string(value->get_string());
    return std::nullopt;
}

/// A number at `key` of any JSON number form, or `fallback`.
inline double number(const boost::json::object& object, std::string_view key, double fallback = 0) {
    if (auto* value = object.if_contains(key); value && value->is_number()) return value->to_number<double>();
    return fallback;
}

/// A whole number from an integer or a floating-point field (truncated); 0 when absent or not a
/// number, and a value past int64's range (an unsigned one, 1e300) reads as the nearest end.
inline std::int64_t integer(const boost::json::object& object, std::string_view key) {
    auto* value = object.if_contains(key);
    if (!value) return 0;
    if (value->is_int64()) return value->get_int64();
    if (value->is_uint64())
        return value->get_uint64() > std::uint64_t(std::numeric_limits<std::int64_t>::max())
                   ? std::numeric_limits<std::int64_t>::max()
                   : static_cast<std::int64_t>(value->get_uint64());
    if (value->is_double()) {
        // Casting a double outside the range is undefined behaviour, not a big number.
        double number = value->get_double();
        if (!(number > -9.2e18)) return number != number ? 0 : std::numeric_limits<std::int64_t>::min();
        if (!(number < 9.2e18)) return std::numeric_limits<std::int64_t>::max();
        return static_cast<std::int64_t>(number);
    }
    return 0;
}

/// The object at `key` (a copy), or an empty one.
inline boost::json::object object(const boost::json::object& object, std::string_view key) {
    if (auto* value = object.if_contains(key); value && value->is_object()) return value->get_object();
    return {};
}

/// The array at `key` (a copy), or an empty one.
inline boost::json::array array(const boost::json::object& object, std::string_view key) {
    if (auto* value = object.if_contains(key); value && value->is_array()) return value->get_array();
    return {};
}

}  // namespace mcp::json_fields
