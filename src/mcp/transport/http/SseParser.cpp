#include "mcp/transport/SseParser.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace mcp {

void SseParser::feed(std::string_view bytes, const std::function<void(SseEvent&)>& on_event) {
    if (bytes.empty()) return;  // nothing read: a pending CR still waits for its LF
    std::size_t start = 0;
    if (skip_lf_ && bytes.front() == '\n') start = 1;
    skip_lf_ = false;
    // Line ends are found with memchr (string_view::find), not byte by byte: an LLM's answer is
    // thousands of small events.
    constexpr auto none = std::string_view::npos;
    std::size_t cr = bytes.find('\r', start);
    std::size_t lf = bytes.find('\n', start);
    for (;;) {
        // Each is looked for again only once passed: a chunk is scanned about twice, whatever its
        // number of lines and whichever line ends it uses.
        if (cr != none && cr < start) cr = bytes.find('\r', start);
        if (lf != none && lf < start) lf = bytes.find('\n', start);
        std::size_t end = std::min(lf, cr);
        if (end == std::string_view::npos) break;
        std::string_view text = bytes.substr(start, end - start);
        if (partial_.empty()) {
            line(text, on_event);  // the whole line is here: no copy
        } else {
            partial_.append(text);
            line(partial_, on_event);
            partial_.clear();
        }
        std::size_t next = end + 1;
        if (bytes[end] == '\r') {
            if (next < bytes.size()) {
                if (bytes[next] == '\n') ++next;
            } else {
                skip_lf_ = true;  // the next chunk's first byte may be this CR's LF
            }
        }
        start = next;
    }
    partial_.append(bytes.substr(std::min(start, bytes.size())));
    if (partial_.size() + data_.size() > max_event_bytes_)
        throw std::length_error("an event of the stream passed " + std::to_string(max_event_bytes_) + " bytes");
}

void SseParser::finish(const std::function<void(SseEvent&)>& on_event) {
    if (!partial_.empty()) {
        std::string last = std::move(partial_);
        partial_.clear();
        line(last, on_event);
    }
    line({}, on_event);
}

void SseParser::line(std::string_view text, const std::function<void(SseEvent&)>& on_event) {
    if (text.empty()) {
        if (has_data_) {
            SseEvent event;
            if (!type_.empty()) event.type = type_;
            event.data = std::move(data_);
            event.id = last_event_id_;
            on_event(event);
        }
        type_.clear();
        data_.clear();
        has_data_ = false;
        return;
    }
    if (text.front() == ':') return;  // a comment (keep-alive)
    std::string_view field = text;
    std::string_view value;
    if (auto colon = text.find(':'); colon != std::string_view::npos) {
        field = text.substr(0, colon);
        value = text.substr(colon + 1);
        if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    }
    if (field == "data") {
        if (has_data_) data_ += '\n';
        data_.append(value);
        has_data_ = true;
    } else if (field == "event") {
        type_ = std::string(value);
    } else if (field == "id") {
        if (value.find('\0') == std::string_view::npos) last_event_id_ = std::string(value);
    } else if (field == "retry") {
        if (!value.empty() && std::all_of(value.begin(), value.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
            try {
                // At most ten minutes: a timer of billions of milliseconds overflows its clock.
                retry_ = std::chrono::milliseconds(std::min<long long>(std::stoll(std::string(value)), 600000));
            } catch (const std::exception&) {
            }
        }
    }
}

}  // namespace mcp
