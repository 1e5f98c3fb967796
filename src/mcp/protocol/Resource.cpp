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
    r.uri = json_fields::text(in, "uri");
    r.name = json_fields::text(in, "name");
    r.title = json_fields::optional_text(in, "title");
    r.description = json_fields::optional_text(in, "description");
    r.mime_type = json_fields::optional_text(in, "mimeType");
    if (auto* v = in.if_contains("size"); v && v->is_int64()) r.size = v->get_int64();
    r.annotations = json_fields::object(in, "annotations");
    r.icons = json_fields::array(in, "icons");
    r.meta = json_fields::object(in, "_meta");
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
    t.uri_template = json_fields::text(in, "uriTemplate");
    t.name = json_fields::text(in, "name");
    t.title = json_fields::optional_text(in, "title");
    t.description = json_fields::optional_text(in, "description");
    t.mime_type = json_fields::optional_text(in, "mimeType");
    t.annotations = json_fields::object(in, "annotations");
    t.icons = json_fields::array(in, "icons");
    t.meta = json_fields::object(in, "_meta");
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
    return ResourceContents{json_fields::text(in, "uri"), json_fields::optional_text(in, "mimeType"),
                            json_fields::optional_text(in, "text"), json_fields::optional_text(in, "blob"),
                            json_fields::object(in, "_meta")};
}

json::object ReadResourceResult::to_json() const {
    json::array items;
    for (const auto& c : contents) items.push_back(c.to_json());
    return json::object{{"contents", std::move(items)}};
}

}  // namespace mcp
