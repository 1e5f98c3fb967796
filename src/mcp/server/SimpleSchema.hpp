#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// A fast path for the schemas most tools declare: an object whose properties are checked only by
// type, plus required names and additionalProperties. Validating those with the full validator costs more
// than the rest of a tools/call; this gives the same verdicts for that subset in a fraction of the
// time. Any other keyword makes compile() decline, and mcp::JsonSchema does the work.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcp::detail {

class SimpleSchema {
public:
    /// The fast form of `schema`, or nothing when it uses a keyword outside the subset.
    static std::optional<SimpleSchema> compile(const boost::json::object& schema);
    /// Nothing when valid, else a message naming the field.
    std::optional<std::string> validate(const boost::json::value& instance) const;
    std::optional<std::string> validate_object(const boost::json::object& object) const;

private:
    enum TypeBit : unsigned {
        null_type = 1,
        boolean_type = 2,
        integer_type = 4,
        number_type = 8,
        string_type = 16,
        array_type = 32,
        object_type = 64,
        any_type = 127
    };
    struct Property {
        std::string name;
        unsigned types = any_type;
    };
    static std::optional<unsigned> parse_types(const boost::json::value& type);
    static bool matches(const boost::json::value& value, unsigned types);
    static std::string describe(unsigned types);

    std::vector<Property> properties_;
    std::vector<std::string> required_;
    bool additional_allowed_ = true;
};

}  // namespace mcp::detail
