#pragma once
// Server-Sent Events, parsed as the WHATWG spec says: lines end in CRLF, LF or CR; lines starting
// with ':' are comments; `data` lines join with '\n'; `id` and `retry` persist; an event is
// dispatched at a blank line. Bytes may arrive split anywhere. libmcp's HTTP client reads MCP
// streams with it; applications read other streams with it (an LLM's answer).

#include "mcp/Export.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

/// One dispatched Server-Sent Event.
struct MCP_API SseEvent {
    std::string type = "message";  ///< The `event` field; "message" when the event named none.
    std::string data;  ///< The `data` lines, joined with newlines.
    std::string id;  ///< the last event id in force when it was dispatched
};

/// A Server-Sent Events parser following the WHATWG rules; bytes may be fed split anywhere. Reads
/// MCP's streams and any other (an LLM's answer).
class MCP_API SseParser {
public:
    /// `max_event_bytes`: the longest event (and line) accepted; longer is a stream that never
    /// ends its event. Default: no limit.
    explicit SseParser(std::size_t max_event_bytes = static_cast<std::size_t>(-1)) : max_event_bytes_(max_event_bytes) {}

    /// Feeds bytes; calls `on_event` for each complete event. Throws std::length_error when an
    /// event passes the limit.
    void feed(std::string_view bytes, const std::function<void(SseEvent&)>& on_event);
    /// The stream ended: an event not closed by a blank line is dispatched too. The spec drops
    /// it; call this for servers known to end without one (LLM gateways do).
    void finish(const std::function<void(SseEvent&)>& on_event);
    /// The last event id seen, even on events without data.
    const std::string& last_event_id() const { return last_event_id_; }
    /// The retry interval the server asked for, if any.
    std::optional<std::chrono::milliseconds> retry() const { return retry_; }

private:
    void line(std::string_view text, const std::function<void(SseEvent&)>& on_event);

    std::size_t max_event_bytes_;
    std::string partial_;
    bool skip_lf_ = false;  ///< the last chunk ended in CR: a leading LF belongs to it
    std::string type_;
    std::string data_;
    bool has_data_ = false;
    std::string last_event_id_;
    std::optional<std::chrono::milliseconds> retry_;
};

}  // namespace mcp
