#pragma once
// Reading optional fields of stored JSON (cache entries, sessions): a missing or mistyped field
// reads as empty or zero, so an entry written by another version degrades instead of throwing.

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace mcpkit::analyze::json_fields {

inline std::string text(const boost::json::object& object, std::string_view key) {
    const boost::json::value* value = object.if_contains(key);
    return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

inline std::int64_t integer(const boost::json::object& object, std::string_view key) {
    const boost::json::value* value = object.if_contains(key);
    if (!value) return 0;
    if (value->is_int64()) return value->get_int64();
    if (value->is_double()) return static_cast<std::int64_t>(value->get_double());
    return 0;
}

inline double number(const boost::json::object& object, std::string_view key) {
    const boost::json::value* value = object.if_contains(key);
    if (!value) return 0;
    return value->is_double() ? value->get_double() : value->is_int64() ? double(value->get_int64()) : 0.0;
}

}  // namespace mcpkit::analyze::json_fields
