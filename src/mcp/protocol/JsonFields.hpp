#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Small helpers for reading and writing optional JSON fields, shared by the protocol types.

#include <boost/json.hpp>

#include <optional>
#include <string>

namespace mcp::detail {

inline std::string string_field(const boost::json::object& json, std::string_view key) {
    if (auto* v = json.if_contains(key); v && v->is_string()) return std::string(v->get_string());
    return {};
}

inline std::optional<std::string> optional_string(const boost::json::object& json, std::string_view key) {
    if (auto* v = json.if_contains(key); v && v->is_string()) return std::string(v->get_string());
    return std::nullopt;
}

inline boost::json::object object_field(const boost::json::object& json, std::string_view key) {
    if (auto* v = json.if_contains(key); v && v->is_object()) return v->get_object();
    return {};
}

inline boost::json::array array_field(const boost::json::object& json, std::string_view key) {
    if (auto* v = json.if_contains(key); v && v->is_array()) return v->get_array();
    return {};
}

inline void put(boost::json::object& json, std::string_view key, const std::optional<std::string>& value) {
    if (value) json[key] = *value;
}

inline void put_nonempty(boost::json::object& json, std::string_view key, const boost::json::object& value) {
    if (!value.empty()) json[key] = value;
}

inline void put_nonempty(boost::json::object& json, std::string_view key, const boost::json::array& value) {
    if (!value.empty()) json[key] = value;
}

}  // namespace mcp::detail
