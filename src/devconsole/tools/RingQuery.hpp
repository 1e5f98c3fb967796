#pragma once
// Reading a capture ring for a tool: filters, the newest `limit` matches (oldest first in the
// answer), cursors to page backward (before_cursor) or forward (after_cursor, since_cursor), a
// byte budget for the inline answer, and the metadata that tells a reader what it missed.

#include "devconsole/capture/CaptureRing.hpp"

#include <boost/json/object.hpp>

#include <functional>
#include <optional>
#include <string>

namespace mcpkit::devconsole {

struct RingQuery {
    std::size_t limit = 100;
    std::optional<std::uint64_t> before;  ///< sequences below this
    std::optional<std::uint64_t> after;   ///< sequences above this
    bool everything_after = false;        ///< since_cursor: no limit (the byte budget still holds)
    std::size_t max_bytes = 200 * 1024;   ///< of entries inline
    /// Entry filter on the classified fields (cheap) …
    std::function<bool(const CapturedEntry&)> accept_entry;
    /// … and on the parsed JSON (only for entries that passed the first).
    std::function<bool(const boost::json::object&)> accept_json;
    /// Entries a noise rule matches: left out and counted.
    std::function<bool(const boost::json::object&)> is_noise;
    /// Rewrites an entry for the answer (truncating large fields, say).
    std::function<void(boost::json::object&)> shape;
};

/// Reads `query` from the arguments (limit, last_n, after_cursor, before_cursor, since_cursor,
/// restart_on_eviction). Returns an error message for an unusable cursor.
std::optional<std::string> read_paging(const boost::json::object& arguments, const CaptureRing& ring, RingQuery& query,
                                       std::size_t default_limit = 100, std::size_t max_limit = 1000);

struct RingAnswer {
    boost::json::array entries;  ///< oldest first
    boost::json::object metadata;
};

RingAnswer run_query(const CaptureRing& ring, const RingQuery& query);

}  // namespace mcpkit::devconsole
