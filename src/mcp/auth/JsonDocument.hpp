#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Reading the JSON documents authorization servers send, with errors that name the document and
// the field (they reach the user as they are).

#include <mcp/JsonFields.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

/// Throws AuthorizationError when `body` is not a JSON object, quoting its start unless it may
/// hold secrets (`secret`: token, registration and introspection answers).
boost::json::object parse_json_document(std::string_view body, const std::string& where, bool secret = false);

std::string required_string(const boost::json::object& document, std::string_view field, const std::string& where);
/// "" when absent.
std::string optional_string(const boost::json::object& document, std::string_view field, const std::string& where);
/// Empty when absent.
std::vector<std::string> string_list(const boost::json::object& document, std::string_view field,
                                     const std::string& where);
/// false when absent.
bool optional_bool(const boost::json::object& document, std::string_view field, const std::string& where);
std::optional<double> optional_number(const boost::json::object& document, std::string_view field,
                                      const std::string& where);

}  // namespace mcp::auth
