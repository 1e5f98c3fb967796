#pragma once
// Server-Sent Events, parsed as the WHATWG spec says: lines end in CRLF, LF or CR; lines starting
// with ':' are comments; `data` lines join with '\n'; `id` and `retry` persist; an event is
// dispatched at a blank line. Bytes may arrive split anywhere. libmcp's HTTP client reads MCP
// streams with it; applications read other streams with it (an LLM's answer).

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

struct SseEvent {
    std::string type = "message";
    std::string data;
    std::string id;  ///< the last event id in force when it was dispatched
};

class SseParser {
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
