#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// A schema document made ready to evaluate: its own copy of the JSON, which draft it follows, and
// an index of what references may point at (resources by $id, anchors, each schema's base URI).

#include "mcp/schema/JsonSchema.hpp"

#include <regex>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace mcp {

struct JsonSchema::Compiled {
    enum class Draft { draft7, draft2020 };

    boost::json::value document;
    Draft draft = Draft::draft2020;
    std::string root_uri;
    /// Absolute URI without fragment → the schema that has it as $id (and the root).
    std::unordered_map<std::string, const boost::json::value*> resources;
    /// "URI#name" → the schema holding that $anchor or $dynamicAnchor (draft-07: "$id": "#name").
    std::unordered_map<std::string, const boost::json::value*> anchors;
    std::unordered_set<std::string> dynamic_anchors;
    /// Each schema object the index walked → its base URI.
    std::unordered_map<const boost::json::value*, std::string> base_of;
    /// Each schema object that starts a resource (its $id took effect).
    std::unordered_set<const boost::json::value*> resource_roots;
    /// A compiled "pattern" or "patternProperties" expression. libstdc++'s default executor
    /// backtracks by recursion, one level per character: a client's 100 KB string overflowed the
    /// stack. The polynomial (Thompson) executor keeps no such stack; it cannot follow
    /// back-references, and a pattern with them keeps the backtracking one and a bound on what it
    /// is matched against. A polynomial one is kept as ^[\s\S]*(?:PATTERN), which regex_search
    /// runs in one pass instead of once per starting position.
    struct Pattern {
        std::regex expression;
        bool backtracking = false;
    };
    /// The longest text a backtracking pattern is matched against (far below what overflows).
    static constexpr std::size_t max_backtracking_text = 1000;
    /// Compiled "pattern" and "patternProperties" expressions, by source text.
    std::unordered_map<std::string, Pattern> patterns;
    /// unevaluatedProperties/unevaluatedItems appear: evaluation must then collect annotations.
    bool needs_annotations = false;

    /// Builds the index; throws std::invalid_argument for what cannot be used.
    void index();
    /// The schema a reference names from `base`, with the base URI in effect there; nullptr when
    /// the document does not hold it.
    const boost::json::value* resolve(const std::string& base, std::string_view reference, std::string& target_base) const;
    const Pattern& pattern(const std::string& source) const { return patterns.at(source); }

private:
    void walk(const boost::json::value& schema, std::string base);
    void walk_keyword(std::string_view keyword, const boost::json::value& value, const std::string& base);
    void check_references(const boost::json::value& schema) const;
};

/// RFC 3986 resolution of `reference` against `base`; throws std::invalid_argument.
std::string resolve_uri(const std::string& base, std::string_view reference);

}  // namespace mcp
