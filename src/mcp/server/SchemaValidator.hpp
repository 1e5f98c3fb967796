#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// JSON Schema validation of tool arguments and structured output: mcp::JsonSchema (2020-12, or
// draft-07 when the schema says so), with SimpleSchema's fast path for the common plain schemas.

#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <string>

namespace mcp::detail {

class SchemaValidator {
public:
    /// Throws std::invalid_argument when the schema cannot be compiled.
    /// `allow_fast_path`: use SimpleSchema when the schema fits it (tests turn it off to compare).
    explicit SchemaValidator(const boost::json::object& schema, bool allow_fast_path = true);
    ~SchemaValidator();
    /// Returns nothing when `instance` is valid, else a message naming the offending field.
    std::optional<std::string> validate(const boost::json::value& instance) const;
    /// The same for an object (tool arguments), without wrapping it in a value on the fast path.
    std::optional<std::string> validate(const boost::json::object& instance) const;

private:
    struct Compiled;
    std::unique_ptr<Compiled> compiled_;
};

}  // namespace mcp::detail
