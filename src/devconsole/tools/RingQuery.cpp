#include "devconsole/tools/RingQuery.hpp"

#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace mcpkit::devconsole {
namespace json = boost::json;

std::optional<std::string> read_paging(const json::object& arguments, const CaptureRing& ring, RingQuery& query,
                                       std::size_t default_limit, std::size_t max_limit) {
    query.limit = limit_argument(arguments, "limit", default_limit, max_limit);
    if (auto last_n = number_argument(arguments, "last_n"); last_n && *last_n >= 1)
        query.limit = std::min(query.limit, static_cast<std::size_t>(*last_n));
    auto statistics = ring.statistics();
    bool restart = bool_argument(arguments, "restart_on_eviction").value_or(false);
    auto cursor_of = [&](std::string_view name) -> std::optional<std::string> {
        auto text = string_argument(arguments, name);
        if (!text || text->empty()) return std::nullopt;
        return text;
    };
    for (std::string_view name : {"after_cursor", "since_cursor", "before_cursor"}) {
        auto text = cursor_of(name);
        if (!text) continue;
        auto sequence = parse_cursor(*text);
        if (!sequence)
            return "\"" + std::string(name) + "\" is \"" + *text +
                   "\", not a cursor: pass a cursor from a previous answer's metadata (\"<time>:<sequence>\")";
        bool evicted = statistics.oldest_sequence > 0 && *sequence + 1 < statistics.oldest_sequence;
        if (evicted && name != "before_cursor" && !restart)
            return "The entries after \"" + std::string(name) + "\" were evicted (the buffer keeps " +
                   std::to_string(statistics.max_entries) +
                   "); pass restart_on_eviction:true to continue from the oldest kept entry";
        if (name == "before_cursor") query.before = *sequence;
        else query.after = *sequence;
        if (name == "since_cursor") query.everything_after = true;
    }
    return std::nullopt;
}

RingAnswer run_query(const CaptureRing& ring, const RingQuery& query) {
    RingAnswer answer;
    // Positions are copied out: the entries themselves may be evicted once the ring's lock is released.
    struct Picked {
        std::uint64_t sequence;
        std::int64_t time_ms;
        json::object object;
    };
    std::vector<Picked> picked;
    std::size_t bytes = 0;
    bool truncated_by_bytes = false;
    std::size_t matched = 0;
    std::size_t noise = 0;
    std::uint64_t newest_sequence = 0, oldest_sequence = 0;
    std::int64_t newest_time = 0, oldest_time = 0;
    std::size_t limit = query.everything_after ? SIZE_MAX : query.limit;
    auto consider = [&](const CapturedEntry& entry) {
        if (query.before && entry.sequence >= *query.before) return true;
        if (query.after && entry.sequence <= *query.after) return true;
        if (query.accept_entry && !query.accept_entry(entry)) return true;
        boost::system::error_code ec;
        auto value = json::parse(entry.json, ec);
        if (ec || !value.is_object()) return true;
        auto& object = value.get_object();
        if (query.accept_json && !query.accept_json(object)) return true;
        if (query.is_noise && query.is_noise(object)) {
            ++noise;
            return true;
        }
        ++matched;
        if (picked.size() >= limit) return false;
        auto size = entry.json.size();
        if (bytes + size > query.max_bytes && !picked.empty()) {
            truncated_by_bytes = true;
            return false;
        }
        bytes += size;
        // Shaped only once it is sure to be returned: shaping may store an artifact.
        if (query.shape) query.shape(object);
        object["cursor"] = make_cursor(entry.time_ms, entry.sequence);
        picked.push_back(Picked{entry.sequence, entry.time_ms, std::move(object)});
        return true;
    };
    // A forward read (after/since) walks oldest first from the cursor; others take the newest.
    if (query.after) {
        ring.visit_after(*query.after, consider);
    } else {
        ring.visit_newest_first(consider);
        std::reverse(picked.begin(), picked.end());
    }
    if (!picked.empty()) {
        oldest_sequence = picked.front().sequence;
        oldest_time = picked.front().time_ms;
        newest_sequence = picked.back().sequence;
        newest_time = picked.back().time_ms;
    }
    for (auto& item : picked) answer.entries.push_back(std::move(item.object));
    auto statistics = ring.statistics();
    json::object metadata{{"returned", picked.size()},
                          {"buffer_entries", statistics.entries},
                          {"buffer_capacity", statistics.max_entries},
                          {"evicted", statistics.evicted},
                          {"total_added", statistics.added}};
    if (!picked.empty()) {
        metadata["cursor"] = make_cursor(newest_time, newest_sequence);           // continue forward with after_cursor
        metadata["before_cursor"] = make_cursor(oldest_time, oldest_sequence);    // page backward
    }
    bool more = truncated_by_bytes || (!query.after && matched > picked.size()) ||
                (query.after && !query.everything_after && picked.size() >= limit);
    metadata["has_more"] = more;
    if (noise) metadata["noise_filtered"] = noise;
    if (truncated_by_bytes)
        metadata["note"] = "Stopped at " + std::to_string(query.max_bytes / 1024) +
                           " KB of entries to spare the context; page with the cursors for more";
    answer.metadata = std::move(metadata);
    return answer;
}

}  // namespace mcpkit::devconsole
