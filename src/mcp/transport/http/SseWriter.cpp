#include "mcp/transport/SseWriter.hpp"

#include <algorithm>

namespace mcp {

void append_sse_event(std::string& out, std::string_view data, std::string_view type, std::string_view id,
                      std::chrono::milliseconds retry) {
    if (!id.empty()) out.append("id: ").append(id).append("\n");
    if (retry.count() > 0) out.append("retry: ").append(std::to_string(retry.count())).append("\n");
    if (!type.empty()) out.append("event: ").append(type).append("\n");
    // Lines end in LF, CR or CRLF for a reader: each piece between them is a data line of its own.
    // Found with memchr (find), since MCP's events are whole JSON messages, often large, and
    // usually one line.
    for (;;) {
        std::size_t end = std::min(data.find('\n'), data.find('\r'));
        out.append("data: ").append(data.substr(0, end)).append("\n");
        if (end == std::string_view::npos) break;
        data.remove_prefix(end + (data.substr(end, 2) == "\r\n" ? 2 : 1));
    }
    out.append("\n");
}

void append_sse_comment(std::string& out, std::string_view text) { out.append(": ").append(text).append("\n\n"); }

}  // namespace mcp
