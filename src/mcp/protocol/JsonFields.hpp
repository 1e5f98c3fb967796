#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Writing optional JSON fields, shared by the protocol types (reading them: "mcp/JsonFields.hpp").

#include "mcp/JsonFields.hpp"

#include <boost/json.hpp>

#include <optional>
#include <string>

namespace mcp::detail {

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
