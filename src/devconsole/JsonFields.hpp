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

/// The first `max_bytes` of UTF-8 text, cut before a character rather than inside one (a cut
/// sequence would make the JSON answer invalid for strict readers).
inline std::string utf8_prefix(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return std::string(text);
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return std::string(text.substr(0, end));
}

}  // namespace mcpkit::devconsole
