#include "devconsole/capture/CaptureBuffers.hpp"

#include "devconsole/JsonFields.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace mcpkit::devconsole {
namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, stream_count> stream_names{
    "logs", "network_bodies", "websocket_events", "actions", "performance", "extension_logs"};
/// The array each endpoint's body carries.
constexpr std::array<std::string_view, stream_count> array_fields{
    "entries", "bodies", "events", "actions", "snapshots", "logs"};

/// When the event happened: the first time field it carries (ISO text or epoch milliseconds),
/// else now.
std::int64_t event_time(const json::object& object) {
    for (std::string_view key : {"ts", "timestamp", "time"}) {
        auto* value = object.if_contains(key);
        if (!value) continue;
        if (value->is_string())
            if (auto parsed = parse_iso_time(value->get_string())) return *parsed;
        if (value->is_number()) return json_fields::integer(object, key);
    }
    return wall_clock_ms();
}

std::int64_t tab_of(const json::object& object) {
    if (auto tab = json_fields::integer(object, "tabId")) return tab;
    return json_fields::integer(object, "tab_id");
}

struct Rejection {
    std::size_t index;
    std::string reason;
};

/// Checks one entry and classifies it; returns why it is refused, or nothing.
std::optional<std::string> classify(Stream stream, const json::object& entry, CapturedEntry& captured) {
    captured.time_ms = event_time(entry);
    captured.tab_id = tab_of(entry);
    switch (stream) {
    case Stream::logs: {
        auto* level_value = entry.if_contains("level");
        if (!level_value || !level_value->is_string())
            return std::string("\"level\" is missing: give one of debug, log, info, warn, error");
        auto level = parse_log_level(level_value->get_string());
        if (!level)
            return "\"level\" is \"" + std::string(level_value->get_string()) +
                   "\": use one of debug, log, info, warn, error";
        auto type = json_fields::text(entry, "type");
        LogKind kind = type == "exception" ? LogKind::exception : type == "network" ? LogKind::network : LogKind::console;
        if (!type.empty() && type != "console" && type != "exception" && type != "network")
            return "\"type\" is \"" + std::string(type) + "\": use console, exception or network";
        captured.level = static_cast<std::uint8_t>(static_cast<unsigned>(*level) | (static_cast<unsigned>(kind) << 4));
        return std::nullopt;
    }
    case Stream::websocket: {
        auto direction = json_fields::text(entry, "direction");
        captured.level = direction == "incoming" ? 1 : direction == "outgoing" ? 2 : 0;
        if (json_fields::text(entry, "event").empty())
            return std::string("\"event\" is missing: give open, message, close or error");
        return std::nullopt;
    }
    case Stream::network_bodies:
        if (json_fields::text(entry, "url").empty()) return std::string("\"url\" is missing");
        return std::nullopt;
    case Stream::actions:
        if (json_fields::text(entry, "type").empty()) return std::string("\"type\" is missing (click, input …)");
        return std::nullopt;
    case Stream::performance:
    case Stream::extension_logs:
        return std::nullopt;
    }
    return std::nullopt;
}

std::string ingest_answer(Stream stream, std::size_t accepted, std::size_t rejected, std::size_t held,
                          const std::vector<Rejection>& rejections) {
    json::object answer;
    if (stream == Stream::logs) {
        // The fields the original extension reads.
        answer["entries"] = held;
        answer["received"] = accepted;
    } else {
        answer["count"] = accepted;
        answer["status"] = "ok";
    }
    answer["rejected"] = rejected;
    if (!rejections.empty()) {
        json::array reasons;
        for (const auto& rejection : rejections)
            reasons.push_back(json::object{{"index", rejection.index}, {"reason", rejection.reason}});
        answer["rejections"] = std::move(reasons);
    }
    return json::serialize(answer);
}

std::string error_body(std::string_view message) { return json::serialize(json::object{{"error", message}}); }

}  // namespace

std::string_view to_string(Stream stream) { return stream_names[static_cast<std::size_t>(stream)]; }

std::optional<LogLevel> parse_log_level(std::string_view text) {
    if (text == "debug") return LogLevel::debug;
    if (text == "log") return LogLevel::log;
    if (text == "info") return LogLevel::info;
    if (text == "warn" || text == "warning") return LogLevel::warn;
    if (text == "error") return LogLevel::error;
    return std::nullopt;
}

std::string_view to_string(LogLevel level) {
    constexpr std::array<std::string_view, 5> names{"debug", "log", "info", "warn", "error"};
    return names[static_cast<std::size_t>(level)];
}

CaptureBuffers::CaptureBuffers(CaptureLimits limits) : limits_(limits) {
    for (std::size_t i = 0; i < stream_count; ++i)
        rings_[i] = std::make_unique<CaptureRing>(limits_.budgets[i].max_entries, limits_.budgets[i].max_bytes);
}

IngestResult CaptureBuffers::ingest(Stream stream, std::string_view body) {
    IngestResult result;
    // Most of a batch's cost is parsing; a stack buffer spares the allocations of small ones.
    unsigned char scratch[16384];
    json::monotonic_resource memory(scratch, sizeof scratch);
    boost::system::error_code ec;
    json::value parsed = json::parse(body, ec, &memory);
    if (ec) {
        result.status = 400;
        result.body = error_body("Invalid JSON: " + ec.message());
        return result;
    }
    auto field = array_fields[static_cast<std::size_t>(stream)];
    const json::array* items = nullptr;
    if (auto* object = parsed.if_object())
        if (auto* value = object->if_contains(field)) items = value->if_array();
    if (!items) {
        result.status = 400;
        result.body = error_body("The body must be a JSON object with an array \"" + std::string(field) + "\"");
        return result;
    }
    return ingest_array(stream, *items);
}

IngestResult CaptureBuffers::ingest_array(Stream stream, const json::array& items) {
    IngestResult result;
    std::vector<CapturedEntry> accepted;
    accepted.reserve(items.size());
    std::vector<Rejection> rejections;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto* entry = items[i].if_object();
        CapturedEntry captured;
        std::optional<std::string> problem;
        if (!entry) {
            problem = "not a JSON object";
        } else {
            problem = classify(stream, *entry, captured);
            if (!problem) {
                captured.json = json::serialize(*entry);
                if (captured.json.size() > limits_.max_entry_bytes)
                    problem = "larger than " + std::to_string(limits_.max_entry_bytes) + " bytes";
            }
        }
        if (problem) {
            ++result.rejected;
            if (rejections.size() < 10) rejections.push_back({i, std::move(*problem)});
            continue;
        }
        accepted.push_back(std::move(captured));
    }
    result.accepted = accepted.size();
    ring(stream).add(std::move(accepted));
    result.body = ingest_answer(stream, result.accepted, result.rejected, ring(stream).statistics().entries, rejections);
    return result;
}

std::size_t CaptureBuffers::add_extension_logs(const json::array& lines) {
    return ingest_array(Stream::extension_logs, lines).accepted;
}

json::object CaptureBuffers::statistics() const {
    json::object all;
    for (std::size_t i = 0; i < stream_count; ++i) {
        auto statistics = rings_[i]->statistics();
        all[stream_names[i]] = json::object{{"entries", statistics.entries},
                                            {"bytes", statistics.bytes},
                                            {"max_entries", statistics.max_entries},
                                            {"max_bytes", statistics.max_bytes},
                                            {"added", statistics.added},
                                            {"evicted", statistics.evicted}};
    }
    return all;
}

std::optional<std::int64_t> parse_iso_time(std::string_view text) {
    int year, month, day, hour, minute, second;
    int consumed = 0;
    std::string copy(text.substr(0, 64));
    if (std::sscanf(copy.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second,
                    &consumed) != 6)
        return std::nullopt;
    std::int64_t milliseconds = 0;
    std::size_t at = static_cast<std::size_t>(consumed);
    if (at < copy.size() && copy[at] == '.') {
        int digits = 0;
        for (++at; at < copy.size() && copy[at] >= '0' && copy[at] <= '9'; ++at, ++digits)
            if (digits < 3) milliseconds = milliseconds * 10 + (copy[at] - '0');
        for (; digits < 3; ++digits) milliseconds *= 10;
    }
    std::int64_t offset_minutes = 0;
    if (at < copy.size() && (copy[at] == '+' || copy[at] == '-')) {
        int offset_hours = 0, offset_rest = 0;
        if (std::sscanf(copy.c_str() + at + 1, "%2d:%2d", &offset_hours, &offset_rest) >= 1)
            offset_minutes = (copy[at] == '-' ? -1 : 1) * (offset_hours * 60 + offset_rest);
    }
    std::tm parts{};
    parts.tm_year = year - 1900;
    parts.tm_mon = month - 1;
    parts.tm_mday = day;
    parts.tm_hour = hour;
    parts.tm_min = minute;
    parts.tm_sec = second;
    std::int64_t seconds = timegm(&parts);
    return (seconds - offset_minutes * 60) * 1000 + milliseconds;
}

std::int64_t wall_clock_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string format_iso_time(std::int64_t milliseconds_since_epoch) {
    std::time_t seconds = static_cast<std::time_t>(milliseconds_since_epoch / 1000);
    std::tm parts{};
    gmtime_r(&seconds, &parts);
    char text[96];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1,
                  parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec,
                  static_cast<int>(milliseconds_since_epoch % 1000));
    return text;
}

}  // namespace mcpkit::devconsole
