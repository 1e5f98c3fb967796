#pragma once
// Content blocks (text, image, audio, resource links, embedded resources) as they appear in tool
// results, prompt messages and sampling. Kept as JSON so fields we do not model (annotations,
// _meta, future additions) survive untouched; the factories build the common shapes.

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace mcp {

struct Content {
    boost::json::object json;

    static Content text(std::string_view text);
    static Content image(std::string_view base64_data, std::string_view mime_type);
    static Content audio(std::string_view base64_data, std::string_view mime_type);
    /// An embedded text resource.
    static Content resource_text(std::string_view uri, std::string_view mime_type, std::string_view text);
    /// An embedded binary resource (base64 blob).
    static Content resource_blob(std::string_view uri, std::string_view mime_type, std::string_view base64_blob);
    static Content resource_link(std::string_view uri, std::string_view name,
                                 std::string_view mime_type = {}, std::string_view description = {});

    std::string_view type() const;
};

}  // namespace mcp
