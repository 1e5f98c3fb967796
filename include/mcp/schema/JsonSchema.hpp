#pragma once
// A JSON Schema validator: draft 2020-12 (MCP's default dialect since 2025-11-25), and draft-07
// when a schema's "$schema" asks for it (draft-04/06 are read as draft-07, 2019-09 as 2020-12).
// Proven against the JSON Schema Test Suite (tests/unit/schema).
//
//   auto schema = mcp::JsonSchema::compile(boost::json::parse(R"({"type":"integer","maximum":7})"));
//   if (auto problem = schema.validate(instance)) ...   // "[days]: must be at most 7"
//
// References resolve inside the schema document ($ref to "#/$defs/...", $id, $anchor,
// $dynamicRef/$dynamicAnchor); a reference to another document is refused at compile time with
// an error naming it, since a server must not fetch what a peer's schema points at.
// "format" is an annotation, as 2020-12 says by default; content* keywords are not checked.

#include "mcp/Export.hpp"

#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <string>

namespace mcp {

/// A compiled JSON Schema (draft 2020-12, or draft-07 when "$schema" asks for it) that checks values.
/// Cheap to copy: copies share the compiled form. References to other documents are refused.
class MCP_API JsonSchema {
public:
    /// Throws std::invalid_argument naming what is unusable (a remote $ref, a bad pattern, a
    /// keyword of the wrong type).
    static JsonSchema compile(const boost::json::value& schema);

    /// Nothing when `instance` is valid; else one message: where (`[items][2][name]`) and why.
    std::optional<std::string> validate(const boost::json::value& instance) const;
    /// Whether `instance` is valid, for callers that do not need the reason.
    bool is_valid(const boost::json::value& instance) const;

    /// The compiled form, defined inside the library; public only so the implementation can name it.
    struct Compiled;

private:
    explicit JsonSchema(std::shared_ptr<const Compiled> compiled) : compiled_(std::move(compiled)) {}
    std::shared_ptr<const Compiled> compiled_;
};

}  // namespace mcp
