#include "mcp/transport/SseWriter.hpp"

#include <algorithm>

namespace mcp {

namespace {

/// A field's value on one line: a CR or LF in it would end the field and start another.
void append_field(std::string& out, std::string_view name, std::string_view value) {
    out.append(name).append(": ");
    for (char c : value)
        if (c != '\r' && c != '\n') out.push_back(c);
    out.push_back('\n');
}

}  // namespace

void append_sse_event(std::string& out, std::string_view data, std::string_view type, std::string_view id,
                      std::chrono::milliseconds retry) {
    if (!id.empty()) append_field(out, "id", id);
    if (retry.count() > 0) out.append("retry: ").append(std::to_string(retry.count())).append("\n");
    if (!type.empty()) append_field(out, "event", type);
    // Lines end in LF, CR or CRLF for a reader: each piece between them is a data line of its own.
    // Found with memchr (find), each looked for again only once passed: MCP's events are whole
    // JSON messages, often large, and usually one line.
    constexpr auto none = std::string_view::npos;
    std::size_t start = 0;
    std::size_t cr = data.find('\r');
    std::size_t lf = data.find('\n');
    for (;;) {
        if (cr != none && cr < start) cr = data.find('\r', start);
        if (lf != none && lf < start) lf = data.find('\n', start);
        std::size_t end = std::min(cr, lf);
        out.append("data: ").append(data.substr(start, end == none ? none : end - start)).append("\n");
        if (end == none) break;
        start = end + (data.substr(end, 2) == "\r\n" ? 2 : 1);
    }
    out.append("\n");
}

void append_sse_comment(std::string& out, std::string_view text) { out.append(": ").append(text).append("\n\n"); }

}  // namespace mcp
