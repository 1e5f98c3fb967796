#pragma once
// Resources and resource templates, and what reading one returns.

#include "mcp/Export.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// A resource a server lists in resources/list: something the client can read by URI.
struct MCP_API Resource {
    std::string uri;  ///< Where to read it, e.g. "file:///project/README.md".
    std::string name;  ///< A short programmatic name.
    std::optional<std::string> title;  ///< A display name for people.
    std::optional<std::string> description;  ///< What the resource holds, for people and models.
    std::optional<std::string> mime_type;  ///< Sent as "mimeType" when set.
    std::optional<std::int64_t> size;  ///< The size in bytes, when the server knows it.
    boost::json::object annotations;  ///< Audience, priority, lastModified, …; omitted when empty.
    boost::json::array icons;  ///< Icon objects as sent; omitted when empty.
    boost::json::object meta;  ///< Sent as `_meta`; omitted when empty.

    /// The resources/list entry; unset and empty fields are left out.
    boost::json::object to_json() const;
    /// Reads a resources/list entry leniently: missing or mistyped fields stay empty.
    static Resource from_json(const boost::json::object& json);
};

/// A family of resources a server offers in resources/templates/list, named by a URI template.
struct MCP_API ResourceTemplate {
    std::string uri_template;  ///< RFC 6570, e.g. "test://template/{id}/data"
    std::string name;  ///< A short programmatic name.
    std::optional<std::string> title;  ///< A display name for people.
    std::optional<std::string> description;  ///< What the resources hold, for people and models.
    std::optional<std::string> mime_type;  ///< The type of every resource it matches, when they share one.
    boost::json::object annotations;  ///< Audience, priority, …; omitted when empty.
    boost::json::array icons;  ///< Icon objects as sent; omitted when empty.
    boost::json::object meta;  ///< Sent as `_meta`; omitted when empty.

    /// The resources/templates/list entry; unset and empty fields are left out.
    boost::json::object to_json() const;
    /// Reads a resources/templates/list entry leniently: missing or mistyped fields stay empty.
    static ResourceTemplate from_json(const boost::json::object& json);
};

/// One item of a read: text or a base64 blob.
struct MCP_API ResourceContents {
    std::string uri;  ///< The URI of the resource read (a template's read names the concrete URI).
    std::optional<std::string> mime_type;  ///< The contents' MIME type, when known.
    std::optional<std::string> text;  ///< The contents, when they are text (else `blob` holds them).
    std::optional<std::string> blob;  ///< The contents as base64, for binary data.
    boost::json::object meta;  ///< Sent as `_meta`; omitted when empty.

    /// Text contents of `uri`.
    static ResourceContents of_text(std::string uri, std::string mime_type, std::string text);
    /// Binary contents of `uri`, already encoded as base64.
    static ResourceContents of_blob(std::string uri, std::string mime_type, std::string base64_blob);
    /// The contents object; unset and empty fields are left out.
    boost::json::object to_json() const;
    /// Reads a contents object leniently: missing or mistyped fields stay empty.
    static ResourceContents from_json(const boost::json::object& json);
};

/// What resources/read returns: the resource's contents, possibly in several parts.
struct MCP_API ReadResourceResult {
    std::vector<ResourceContents> contents;  ///< The contents read, each with its own URI.
    /// The resources/read result object, {"contents": [...]}.
    boost::json::object to_json() const;
};

}  // namespace mcp
