#pragma once
// Content blocks (text, image, audio, resource links, embedded resources) as they appear in tool
// results, prompt messages and sampling. Kept as JSON so fields we do not model (annotations,
// _meta, future additions) survive untouched; the factories build the common shapes.

#include "mcp/Export.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace mcp {

/// One content block (text, image, audio, resource link, embedded resource) kept as its JSON object,
/// so fields libmcp does not model (annotations, `_meta`, future ones) survive untouched.
struct MCP_API Content {
    boost::json::object json;  ///< The block as sent, with its "type" member.

    /// A text block.
    static Content text(std::string_view text);
    /// An image block; `base64_data` is the image encoded in base64, e.g. with mime_type "image/png".
    static Content image(std::string_view base64_data, std::string_view mime_type);
    /// An audio block; `base64_data` is the audio encoded in base64, e.g. with mime_type "audio/wav".
    static Content audio(std::string_view base64_data, std::string_view mime_type);
    /// An embedded text resource.
    static Content resource_text(std::string_view uri, std::string_view mime_type, std::string_view text);
    /// An embedded binary resource (base64 blob).
    static Content resource_blob(std::string_view uri, std::string_view mime_type, std::string_view base64_blob);
    /// A link to a resource the client may read; `mime_type` and `description` are left out when empty.
    static Content resource_link(std::string_view uri, std::string_view name,
                                 std::string_view mime_type = {}, std::string_view description = {});

    /// The block's "type" ("text", "image", "resource_link", …), or empty when it has none.
    std::string_view type() const;
};

}  // namespace mcp
