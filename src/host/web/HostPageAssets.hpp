#pragma once
// The chat page's files (web/host/), compiled into the binary so that `mcpkit` stays one file.

#include <string_view>

namespace mcpkit::host {

/// The file served at `path` ("/index.html", "/host.js" …), or empty.
std::string_view host_page_asset(std::string_view path);

}  // namespace mcpkit::host
