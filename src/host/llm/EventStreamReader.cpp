#include "host/llm/EventStreamReader.hpp"

#include <stdexcept>

namespace mcpkit::host {

void EventStreamReader::feed(std::string_view bytes, const std::function<void(std::string_view)>& on_data) {
    pending_.append(bytes);
    std::size_t start = 0;
    while (true) {
        auto end = pending_.find('\n', start);
        if (end == std::string::npos) break;
        std::string_view line(pending_.data() + start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        take_line(line, on_data);
        start = end + 1;
    }
    pending_.erase(0, start);
    if (pending_.size() + data_.size() > max_event_bytes_)
        throw std::length_error("an event of the stream passed " + std::to_string(max_event_bytes_) + " bytes");
}

void EventStreamReader::finish(const std::function<void(std::string_view)>& on_data) {
    if (!pending_.empty()) {
        std::string line = std::move(pending_);
        pending_.clear();
        if (!line.empty() && line.back() == '\r') line.pop_back();
        take_line(line, on_data);
    }
    take_line({}, on_data);
}

void EventStreamReader::take_line(std::string_view line, const std::function<void(std::string_view)>& on_data) {
    if (line.empty()) {
        if (has_data_) {
            std::string data = std::move(data_);
            data_.clear();
            has_data_ = false;
            on_data(data);
        }
        return;
    }
    if (line.front() == ':') return;  // a comment (keep-alive)
    auto colon = line.find(':');
    std::string_view field = line.substr(0, colon);
    if (field != "data") return;
    std::string_view value = colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (has_data_) data_ += '\n';
    data_.append(value);
    has_data_ = true;
}

}  // namespace mcpkit::host
