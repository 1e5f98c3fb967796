#pragma once
// Server-sent events as LLM APIs send them: bytes arrive in arbitrary pieces, events end at a
// blank line (\n\n or \r\n\r\n, Gemini uses the latter), an event's data is its `data:` lines
// joined by \n. Comments and other fields are skipped.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace mcpkit::host {

class EventStreamReader {
public:
    /// Largest event accepted; a longer one is an error (a stream that never ends its event).
    explicit EventStreamReader(std::size_t max_event_bytes = 8u << 20) : max_event_bytes_(max_event_bytes) {}

    /// Feeds bytes; calls `on_data` with each complete event's data. Throws std::length_error
    /// when an event passes the limit.
    void feed(std::string_view bytes, const std::function<void(std::string_view data)>& on_data);
    /// The stream ended: an event not closed by a blank line still counts (some servers end
    /// without one).
    void finish(const std::function<void(std::string_view data)>& on_data);

private:
    void take_line(std::string_view line, const std::function<void(std::string_view)>& on_data);
    std::size_t max_event_bytes_;
    std::string pending_;  ///< an incomplete line
    std::string data_;     ///< the current event's data
    bool has_data_ = false;
};

}  // namespace mcpkit::host
