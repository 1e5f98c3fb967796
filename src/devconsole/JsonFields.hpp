#pragma once
// Reading fields of the JSON the extension sends, where a missing or mistyped field is normal
// (telemetry from many page types) and reads as empty or zero rather than as an error.

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace mcpkit::devconsole {

inline std::string text_of(const boost::json::object& object, std::string_view key) {
    if (auto* value = object.if_contains(key); value && value->is_string()) return std::string(value->get_string());
    return {};
}

inline double number_of(const boost::json::object& object, std::string_view key, double fallback = 0) {
    if (auto* value = object.if_contains(key); value && value->is_number()) return value->to_number<double>();
    return fallback;
}

/// A whole number from an integer or a floating-point field; 0 when absent or not a number.
inline std::int64_t integer_of(const boost::json::object& object, std::string_view key) {
    auto* value = object.if_contains(key);
    if (!value) return 0;
    if (value->is_int64()) return value->get_int64();
    if (value->is_uint64()) return static_cast<std::int64_t>(value->get_uint64());
    if (value->is_double()) return static_cast<std::int64_t>(value->get_double());
    return 0;
}

}  // namespace mcpkit::devconsole
