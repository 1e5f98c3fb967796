#include "mcp/protocol/Content.hpp"

namespace mcp {

Content Content::text(std::string_view text) {
    // Built by hand: this runs for nearly every tool result, and an initializer list costs twice as much.
    Content content;
    content.json.reserve(2);
    content.json.emplace("type", "text");
    content.json.emplace("text", text);
    return content;
}

Content Content::image(std::string_view base64_data, std::string_view mime_type) {
    return Content{{{"type", "image"}, {"data", base64_data}, {"mimeType", mime_type}}};
}

Content Content::audio(std::string_view base64_data, std::string_view mime_type) {
    return Content{{{"type", "audio"}, {"data", base64_data}, {"mimeType", mime_type}}};
}

Content Content::resource_text(std::string_view uri, std::string_view mime_type, std::string_view text) {
    return Content{{{"type", "resource"},
                    {"resource", {{"uri", uri}, {"mimeType", mime_type}, {"text", text}}}}};
}

Content Content::resource_blob(std::string_view uri, std::string_view mime_type, std::string_view base64_blob) {
    return Content{{{"type", "resource"},
                    {"resource", {{"uri", uri}, {"mimeType", mime_type}, {"blob", base64_blob}}}}};
}

Content Content::resource_link(std::string_view uri, std::string_view name, std::string_view mime_type,
                               std::string_view description) {
    Content content{{{"type", "resource_link"}, {"uri", uri}, {"name", name}}};
    if (!mime_type.empty()) content.json["mimeType"] = mime_type;
    if (!description.empty()) content.json["description"] = description;
    return content;
}

std::string_view Content::type() const {
    if (auto* v = json.if_contains("type"); v && v->is_string()) return v->get_string();
    return {};
}

}  // namespace mcp
