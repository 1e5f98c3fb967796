#pragma once
// Every kind of browser event the daemon keeps, one bounded ring each, and the ingestion of what
// the extension posts: each entry is checked (an object, a known level, within the size limit)
// and kept as compact JSON; what is refused is counted and named in the answer, never silently
// dropped.

#include "devconsole/capture/CaptureRing.hpp"

#include <boost/json/fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcpkit::devconsole {

enum class Stream : std::uint8_t { logs, network_bodies, websocket, actions, performance, extension_logs };
constexpr std::size_t stream_count = 6;
std::string_view to_string(Stream stream);

/// Console levels in order of severity; an entry's CapturedEntry::level holds one in its low bits.
enum class LogLevel : std::uint8_t { debug, log, info, warn, error };
std::optional<LogLevel> parse_log_level(std::string_view text);
std::string_view to_string(LogLevel level);
/// The kind of a logs entry, in CapturedEntry::level's high bits.
enum class LogKind : std::uint8_t { console, exception, network };
inline LogLevel level_of(const CapturedEntry& entry) { return static_cast<LogLevel>(entry.level & 0x0f); }
inline LogKind kind_of(const CapturedEntry& entry) { return static_cast<LogKind>(entry.level >> 4); }

struct RingBudget {
    std::size_t max_entries;
    std::size_t max_bytes;
};

struct CaptureLimits {
    std::array<RingBudget, stream_count> budgets{{
        {10000, 32u << 20},  // logs
        {1000, 16u << 20},   // network bodies
        {5000, 8u << 20},    // WebSocket events
        {2000, 2u << 20},    // actions
        {500, 1u << 20},     // performance snapshots
        {2000, 2u << 20},    // extension logs
    }};
    std::size_t max_entry_bytes = 1u << 20;
};

/// What an ingestion answers: the HTTP status and body, and the counts.
struct IngestResult {
    int status = 200;
    std::string body;
    std::size_t accepted = 0;
    std::size_t rejected = 0;
};

class CaptureBuffers {
public:
    explicit CaptureBuffers(CaptureLimits limits = {});

    /// A POST from the extension: `{"entries":[…]}` (logs), `{"bodies":[…]}`, `{"events":[…]}`,
    /// `{"actions":[…]}` or `{"snapshots":[…]}`.
    IngestResult ingest(Stream stream, std::string_view body);
    /// The extension's own debug log lines, as /sync carries them.
    std::size_t add_extension_logs(const boost::json::array& lines);
    /// Entries checked one by one, as ingest() does, for a stream whose array is already parsed.
    IngestResult ingest_array(Stream stream, const boost::json::array& items);

    CaptureRing& ring(Stream stream) { return *rings_[static_cast<std::size_t>(stream)]; }
    const CaptureRing& ring(Stream stream) const { return *rings_[static_cast<std::size_t>(stream)]; }
    /// Fill, budget and evictions of every ring, for /health and observe metadata.
    boost::json::object statistics() const;
    void clear(Stream stream) { ring(stream).clear(); }

private:
    CaptureLimits limits_;
    std::array<std::unique_ptr<CaptureRing>, stream_count> rings_;
};

/// Milliseconds since the epoch of an ISO 8601 / RFC 3339 time ("2026-11-24T15:52:05.156Z",
/// offsets allowed), or nothing.
std::optional<std::int64_t> parse_iso_time(std::string_view text);
/// Milliseconds since the epoch, now.
std::int64_t wall_clock_ms();
/// The time as RFC 3339 UTC with milliseconds.
std::string format_iso_time(std::int64_t milliseconds_since_epoch);

}  // namespace mcpkit::devconsole
