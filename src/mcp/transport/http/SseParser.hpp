#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Server-Sent Events, parsed as the WHATWG spec says: lines end in CRLF, LF or CR; lines starting
// with ':' are comments; `data` lines join with '\n'; `id` and `retry` persist; an event is
// dispatched at a blank line. Bytes may arrive split anywhere.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::http {

struct SseEvent {
    std::string type = "message";
    std::string data;
    std::string id;  ///< the last event id in force when it was dispatched
};

class SseParser {
public:
    /// Feeds bytes; calls `on_event` for each complete event.
    void feed(std::string_view bytes, const std::function<void(SseEvent&)>& on_event);
    /// The last event id seen, even on events without data.
    const std::string& last_event_id() const { return last_event_id_; }
    /// The retry interval the server asked for, if any.
    std::optional<std::chrono::milliseconds> retry() const { return retry_; }

private:
    void line(std::string_view text, const std::function<void(SseEvent&)>& on_event);

    std::string partial_;
    bool skip_lf_ = false;  ///< the last chunk ended in CR: a leading LF belongs to it
    std::string type_;
    std::string data_;
    bool has_data_ = false;
    std::string last_event_id_;
    std::optional<std::chrono::milliseconds> retry_;
};

}  // namespace mcp::http
