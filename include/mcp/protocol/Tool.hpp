#pragma once
// Tools: what a server advertises in tools/list and what a call returns.

#include "mcp/Export.hpp"
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
MCP_API std::optional<std::string> header_annotation_problem(const boost::json::object& input_schema);

/// A tool a server advertises in tools/list: its name, what it does and the arguments it takes.
struct MCP_API Tool {
    std::string name;  ///< The name tools/call asks for.
    /// What the tool does and when to use it; the model reads this to choose tools.
    std::string description;
    /// A JSON Schema object, sent verbatim (any 2020-12 keyword survives). Default: an empty object schema.
    boost::json::object input_schema{{"type", "object"}};
    /// A JSON Schema for the tool's structured content, when it returns any; the server checks
    /// each successful result against it.
    std::optional<boost::json::object> output_schema;
    std::optional<std::string> title;  ///< A display name for people.
    boost::json::object annotations;  ///< readOnlyHint, destructiveHint, …; omitted when empty
    boost::json::array icons;  ///< Icon objects as sent; omitted when empty.
    boost::json::object execution;    ///< e.g. {"taskSupport": "forbidden"}; omitted when empty
    boost::json::object meta;  ///< Sent as `_meta`; omitted when empty.

    /// The tools/list entry; unset and empty fields are left out.
    boost::json::object to_json() const;
    /// Reads a tools/list entry leniently: missing or mistyped fields stay empty (a missing
    /// inputSchema keeps the default above).
    static Tool from_json(const boost::json::object& json);
};

/// What tools/call returns: content blocks for the model, optional structured content, and whether
/// the tool failed.
struct MCP_API CallToolResult {
    std::vector<Content> content;  ///< The result for the model: text, images, resources, …
    /// Sent as "structuredContent": a JSON value matching the tool's output schema.
    std::optional<boost::json::value> structured_content;
    bool is_error = false;  ///< Sent as "isError" when true: the tool failed, and `content` says why.
    boost::json::object meta;  ///< Sent as `_meta`; omitted when empty.

    /// A successful result of one text block.
    static CallToolResult text(std::string_view text);
    /// A tool-level failure the model should read (isError:true).
    static CallToolResult error(std::string_view message);
    /// Structured output plus its JSON text as content, as the spec recommends for old clients.
    static CallToolResult structured(boost::json::value structured);

    /// The tools/call result object; fields that are unset or empty are left out.
    boost::json::object to_json() const&;
    /// The same, moving the content instead of copying it.
    boost::json::object to_json() &&;
    /// Appends the result's JSON text, as to_json() would serialize it, without building it.
    void append_json(std::string& out) const;
    /// Reads a tools/call result leniently: content blocks that are not objects are skipped, missing
    /// fields stay empty.
    static CallToolResult from_json(const boost::json::object& json);
};

}  // namespace mcp
