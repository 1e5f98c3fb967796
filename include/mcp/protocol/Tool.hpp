#pragma once
// Tools: what a server advertises in tools/list and what a call returns.

#include "mcp/protocol/Content.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// Why a tool's x-mcp-header annotations (SEP-2243) are unusable, or nothing: each must be a
/// non-empty header token, unique case-insensitively, on a string, integer or boolean property.
/// Clients ignore tools that fail this.
std::optional<std::string> header_annotation_problem(const boost::json::object& input_schema);

struct Tool {
    std::string name;
    std::string description;
    /// A JSON Schema object, sent verbatim (any 2020-12 keyword survives). Default: an empty object schema.
    boost::json::object input_schema{{"type", "object"}};
    std::optional<boost::json::object> output_schema;
    std::optional<std::string> title;
    boost::json::object annotations;  ///< readOnlyHint, destructiveHint, …; omitted when empty
    boost::json::array icons;
    boost::json::object execution;    ///< e.g. {"taskSupport": "forbidden"}; omitted when empty
    boost::json::object meta;

    boost::json::object to_json() const;
    static Tool from_json(const boost::json::object& json);
};

struct CallToolResult {
    std::vector<Content> content;
    std::optional<boost::json::value> structured_content;
    bool is_error = false;
    boost::json::object meta;

    static CallToolResult text(std::string_view text);
    /// A tool-level failure the model should read (isError:true).
    static CallToolResult error(std::string_view message);
    /// Structured output plus its JSON text as content, as the spec recommends for old clients.
    static CallToolResult structured(boost::json::value structured);

    boost::json::object to_json() const&;
    /// The same, moving the content instead of copying it.
    boost::json::object to_json() &&;
    /// Appends the result's JSON text, as to_json() would serialize it, without building it.
    void append_json(std::string& out) const;
    static CallToolResult from_json(const boost::json::object& json);
};

}  // namespace mcp
