#include "devconsole/capture/CaptureRing.hpp"

namespace mcpkit::devconsole {

CaptureRing::CaptureRing(std::size_t max_entries, std::size_t max_bytes)
    : max_entries_(max_entries), max_bytes_(max_bytes) {}

void CaptureRing::add(std::vector<CapturedEntry> entries) {
    std::lock_guard lock(mutex_);
    for (auto& entry : entries) {
        entry.sequence = next_sequence_++;
        bytes_ += cost(entry);
        entries_.push_back(std::move(entry));
    }
    evict_locked();
}

void CaptureRing::evict_locked() {
    while (!entries_.empty() && (entries_.size() > max_entries_ || bytes_ > max_bytes_)) {
        bytes_ -= cost(entries_.front());
        entries_.pop_front();
        ++evicted_;
    }
}

void CaptureRing::visit_newest_first(const std::function<bool(const CapturedEntry&)>& visit) const {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
        if (!visit(*it)) return;
}

void CaptureRing::visit_after(std::uint64_t after, const std::function<bool(const CapturedEntry&)>& visit) const {
    std::lock_guard lock(mutex_);
    if (entries_.empty()) return;
    // Sequence numbers are consecutive within the ring: the first entry after `after` is found
    // by arithmetic, not by a search.
    std::uint64_t first = entries_.front().sequence;
    std::size_t start = after < first ? 0 : static_cast<std::size_t>(after - first + 1);
    for (std::size_t i = start; i < entries_.size(); ++i)
        if (!visit(entries_[i])) return;
}

RingStatistics CaptureRing::statistics() const {
    std::lock_guard lock(mutex_);
    RingStatistics statistics;
    statistics.entries = entries_.size();
    statistics.bytes = bytes_;
    statistics.max_entries = max_entries_;
    statistics.max_bytes = max_bytes_;
    statistics.added = next_sequence_ - 1;
    statistics.evicted = evicted_;
    statistics.oldest_sequence = entries_.empty() ? 0 : entries_.front().sequence;
    return statistics;
}

void CaptureRing::clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
    entries_.shrink_to_fit();
    bytes_ = 0;
}

void CaptureRing::resize(std::size_t max_entries, std::size_t max_bytes) {
    std::lock_guard lock(mutex_);
    max_entries_ = max_entries;
    max_bytes_ = max_bytes;
    evict_locked();
}

}  // namespace mcpkit::devconsole
