#pragma once
// Resources and resource templates, and what reading one returns.

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

struct Resource {
    std::string uri;
    std::string name;
    std::optional<std::string> title;
    std::optional<std::string> description;
    std::optional<std::string> mime_type;
    std::optional<std::int64_t> size;
    boost::json::object annotations;
    boost::json::array icons;
    boost::json::object meta;

    boost::json::object to_json() const;
    static Resource from_json(const boost::json::object& json);
};

struct ResourceTemplate {
    std::string uri_template;  ///< RFC 6570, e.g. "test://template/{id}/data"
    std::string name;
    std::optional<std::string> title;
    std::optional<std::string> description;
    std::optional<std::string> mime_type;
    boost::json::object annotations;
    boost::json::array icons;
    boost::json::object meta;

    boost::json::object to_json() const;
    static ResourceTemplate from_json(const boost::json::object& json);
};

/// One item of a read: text or a base64 blob.
struct ResourceContents {
    std::string uri;
    std::optional<std::string> mime_type;
    std::optional<std::string> text;
    std::optional<std::string> blob;
    boost::json::object meta;

    static ResourceContents of_text(std::string uri, std::string mime_type, std::string text);
    static ResourceContents of_blob(std::string uri, std::string mime_type, std::string base64_blob);
    boost::json::object to_json() const;
    static ResourceContents from_json(const boost::json::object& json);
};

struct ReadResourceResult {
    std::vector<ResourceContents> contents;
    boost::json::object to_json() const;
};

}  // namespace mcp
