#include "host/coordinator/AppMetadata.hpp"

namespace mcpkit::host {

namespace {

const boost::json::object* ui_meta(const mcp::Tool& tool) {
    auto* ui = tool.meta.if_contains("ui");
    return ui && ui->is_object() ? &ui->get_object() : nullptr;
}

}  // namespace

std::optional<std::string> app_resource_uri(const mcp::Tool& tool) {
    const boost::json::value* uri = nullptr;
    if (auto* ui = ui_meta(tool)) uri = ui->if_contains("resourceUri");
    if (!uri) uri = tool.meta.if_contains("ui/resourceUri");
    if (!uri || !uri->is_string() || !uri->get_string().starts_with("ui://")) return std::nullopt;
    return std::string(uri->get_string());
}

bool visible_to(const mcp::Tool& tool, std::string_view who) {
    auto* ui = ui_meta(tool);
    auto* visibility = ui ? ui->if_contains("visibility") : nullptr;
    if (!visibility || !visibility->is_array()) return true;
    for (const auto& entry : visibility->get_array())
        if (entry.is_string() && entry.get_string() == who) return true;
    return false;
}

}  // namespace mcpkit::host
