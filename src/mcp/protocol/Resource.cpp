#include "mcp/protocol/Resource.hpp"

#include "protocol/JsonFields.hpp"

namespace mcp {
namespace json = boost::json;

json::object Resource::to_json() const {
    json::object out{{"uri", uri}, {"name", name}};
    detail::put(out, "title", title);
    detail::put(out, "description", description);
    detail::put(out, "mimeType", mime_type);
    if (size) out["size"] = *size;
    detail::put_nonempty(out, "annotations", annotations);
    detail::put_nonempty(out, "icons", icons);
    detail::put_nonempty(out, "_meta", meta);
    return out;
}

Resource Resource::from_json(const json::object& in) {
    Resource r;
    r.uri = detail::string_field(in, "uri");
    r.name = detail::string_field(in, "name");
    r.title = detail::optional_string(in, "title");
    r.description = detail::optional_string(in, "description");
    r.mime_type = detail::optional_string(in, "mimeType");
    if (auto* v = in.if_contains("size"); v && v->is_int64()) r.size = v->get_int64();
    r.annotations = detail::object_field(in, "annotations");
    r.icons = detail::array_field(in, "icons");
    r.meta = detail::object_field(in, "_meta");
    return r;
}

json::object ResourceTemplate::to_json() const {
    json::object out{{"uriTemplate", uri_template}, {"name", name}};
    detail::put(out, "title", title);
    detail::put(out, "description", description);
    detail::put(out, "mimeType", mime_type);
    detail::put_nonempty(out, "annotations", annotations);
    detail::put_nonempty(out, "icons", icons);
    detail::put_nonempty(out, "_meta", meta);
    return out;
}

ResourceTemplate ResourceTemplate::from_json(const json::object& in) {
    ResourceTemplate t;
    t.uri_template = detail::string_field(in, "uriTemplate");
    t.name = detail::string_field(in, "name");
    t.title = detail::optional_string(in, "title");
    t.description = detail::optional_string(in, "description");
    t.mime_type = detail::optional_string(in, "mimeType");
    t.annotations = detail::object_field(in, "annotations");
    t.icons = detail::array_field(in, "icons");
    t.meta = detail::object_field(in, "_meta");
    return t;
}

ResourceContents ResourceContents::of_text(std::string uri, std::string mime_type, std::string text) {
    return ResourceContents{std::move(uri), std::move(mime_type), std::move(text), std::nullopt, {}};
}

ResourceContents ResourceContents::of_blob(std::string uri, std::string mime_type, std::string base64_blob) {
    return ResourceContents{std::move(uri), std::move(mime_type), std::nullopt, std::move(base64_blob), {}};
}

json::object ResourceContents::to_json() const {
    json::object out{{"uri", uri}};
    detail::put(out, "mimeType", mime_type);
    if (text) out["text"] = *text;
    if (blob) out["blob"] = *blob;
    detail::put_nonempty(out, "_meta", meta);
    return out;
}

ResourceContents ResourceContents::from_json(const json::object& in) {
    return ResourceContents{detail::string_field(in, "uri"), detail::optional_string(in, "mimeType"),
                            detail::optional_string(in, "text"), detail::optional_string(in, "blob"),
                            detail::object_field(in, "_meta")};
}

json::object ReadResourceResult::to_json() const {
    json::array items;
    for (const auto& c : contents) items.push_back(c.to_json());
    return json::object{{"contents", std::move(items)}};
}

}  // namespace mcp
