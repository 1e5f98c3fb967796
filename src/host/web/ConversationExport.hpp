#pragma once
// A conversation as a file the user keeps (GET /conversations/<id>/export): Markdown to read or
// paste elsewhere, or JSON with every message as the host stores it (docs/host.md, "Export").

#include "host/store/ChatStore.hpp"

#include <string>
#include <string_view>

namespace mcpkit::host {

struct ExportedConversation {
    std::string body;
    std::string content_type;
    std::string file_name;  ///< from the title, safe in a Content-Disposition header
};

/// `format`: "md" or "json"; throws std::invalid_argument naming the choices for another.
ExportedConversation export_conversation(const StoredSession& conversation, std::string_view format);

}  // namespace mcpkit::host
