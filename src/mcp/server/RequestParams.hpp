#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Reading a request's params, with errors that name the field.

#include "mcp/Error.hpp"

#include <boost/json.hpp>

#include <string>

namespace mcp::detail {

/// The params object, or an empty one when the request had none.
inline const boost::json::object& params_object(const boost::json::value& params) {
    static const boost::json::object empty;
    return params.is_object() ? params.get_object() : empty;
}

inline std::string required_string(const boost::json::object& params, std::string_view field) {
    auto* value = params.if_contains(field);
    if (!value || !value->is_string())
        throw Error::invalid_params("Invalid params: \"" + std::string(field) + "\" must be a string");
    return std::string(value->get_string());
}

}  // namespace mcp::detail
