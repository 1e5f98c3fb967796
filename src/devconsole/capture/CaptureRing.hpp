#pragma once
// One bounded buffer of captured browser events (console entries, network bodies, WebSocket
// frames …): the newest are kept, within a count and a byte budget, and the oldest are evicted
// first. Every entry gets a sequence number that counts every entry ever added, so a cursor
// ("after sequence N") stays meaningful while entries are evicted, and a reader can tell that it
// missed some.
//
// Entries are kept as their compact JSON text plus the few fields filters need at once: held as
// parsed JSON, an entry costs three to four times its text.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace mcpkit::devconsole {

struct CapturedEntry {
    std::uint64_t sequence = 0;
    std::int64_t time_ms = 0;  ///< when it happened (the page's clock), milliseconds since the epoch
    std::int64_t tab_id = 0;   ///< 0: unknown
    std::uint8_t level = 0;    ///< the ring's own classification (a console level, a direction …)
    std::string json;
};

struct RingStatistics {
    std::size_t entries = 0;
    std::size_t bytes = 0;
    std::size_t max_entries = 0;
    std::size_t max_bytes = 0;
    std::uint64_t added = 0;    ///< ever
    std::uint64_t evicted = 0;  ///< ever, to keep within the budget
    std::uint64_t oldest_sequence = 0;  ///< of the oldest entry held (0: none)
};

class CaptureRing {
public:
    CaptureRing(std::size_t max_entries, std::size_t max_bytes);

    /// Adds entries in order, giving each its sequence number; evicts the oldest beyond the budget.
    void add(std::vector<CapturedEntry> entries);
    /// Visits the held entries newest first while `visit` returns true.
    void visit_newest_first(const std::function<bool(const CapturedEntry&)>& visit) const;
    /// The held entries with sequence > `after`, oldest first, while `visit` returns true.
    void visit_after(std::uint64_t after, const std::function<bool(const CapturedEntry&)>& visit) const;
    RingStatistics statistics() const;
    void clear();
    /// A new budget (configure): evicts at once if the ring holds more.
    void resize(std::size_t max_entries, std::size_t max_bytes);

private:
    void evict_locked();
    static std::size_t cost(const CapturedEntry& entry) { return entry.json.size() + sizeof(CapturedEntry); }

    mutable std::mutex mutex_;
    std::deque<CapturedEntry> entries_;
    std::size_t bytes_ = 0;
    std::size_t max_entries_;
    std::size_t max_bytes_;
    std::uint64_t next_sequence_ = 1;
    std::uint64_t evicted_ = 0;
};

}  // namespace mcpkit::devconsole
