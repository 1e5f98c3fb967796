#pragma once
// What a tool's _meta says about its MCP App (SEP-1865, io.modelcontextprotocol/ui): the ui://
// resource that shows its results, and who may call it ("model", "app", or both by default).

#include <mcp/protocol/Tool.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcpkit::host {

inline constexpr std::string_view mcp_app_mime_type = "text/html;profile=mcp-app";

/// `_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`, when it is a ui:// URI.
std::optional<std::string> app_resource_uri(const mcp::Tool& tool);
/// Whether `_meta.ui.visibility` (default: model and app) includes `who`.
bool visible_to(const mcp::Tool& tool, std::string_view who);

}  // namespace mcpkit::host
