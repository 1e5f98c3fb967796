#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// JSON values as JSON Schema sees them: numbers compared by value (1 and 1.0 are equal, and 1.0 is
// an integer), types by name, string length in code points, and values written back for messages.

#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp::schema_values {

bool is_number(const boost::json::value& value);
double number(const boost::json::value& value);
/// An integer, or a finite number with no fraction.
bool is_integer(const boost::json::value& value);
/// JSON equality, numbers by value.
bool equal(const boost::json::value& a, const boost::json::value& b);
/// A hash that agrees with `equal`: equal values hash alike (1 and 1.0, objects in any key order).
std::size_t hash_of(const boost::json::value& value);
/// The length of UTF-8 text in code points, as maxLength and minLength count it.
std::size_t code_points(std::string_view text);
/// Whether `value` is of the JSON Schema type named `type` ("integer", "object", …).
bool has_type(const boost::json::value& value, std::string_view type);
/// "an integer", "a string", …: the type in a sentence.
const char* type_phrase(std::string_view type);
/// The value as JSON writes it, for messages.
std::string text_of(const boost::json::value& value);
/// The nodes of a value, counted up to `limit`: what a schema's step budget grows with.
std::size_t node_count(const boost::json::value& value, std::size_t limit);
/// Two equal items of `array` (uniqueItems), by index, if there are any. Items are sorted by a
/// hash that agrees with `equal`, and only items of one hash are compared: an array of a million
/// items costs a sort, not half a trillion comparisons.
std::optional<std::pair<std::size_t, std::size_t>> equal_items(const boost::json::array& array);

}  // namespace mcp::schema_values
