#include "host/HostLog.hpp"

#include <boost/json/serialize.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

std::string_view level_name(LogLevel level) {
    switch (level) {
    case LogLevel::debug: return "debug";
    case LogLevel::info: return "info";
    case LogLevel::warn: return "warn";
    case LogLevel::error: return "error";
    }
    return "info";
}

std::string timestamp() {
    auto now = std::chrono::system_clock::now();
    auto seconds = std::chrono::system_clock::to_time_t(now);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(ms));
    return text;
}

}  // namespace

LogLevel log_level_named(std::string_view name) {
    if (name == "debug" || name == "trace") return LogLevel::debug;
    if (name == "warn" || name == "warning") return LogLevel::warn;
    if (name == "error") return LogLevel::error;
    return LogLevel::info;
}

void HostLog::write(LogLevel level, std::string_view component, std::string_view action, json::object fields) {
    if (level < level_) return;
    std::string line;
    if (json_) {
        json::object entry{{"time", timestamp()}, {"level", level_name(level)}, {"component", component}, {"action", action}};
        for (auto& [key, value] : fields) entry[key] = std::move(value);
        line = json::serialize(entry);
    } else {
        line = "mcpkit host: [" + std::string(component) + "] " + std::string(action);
        for (const auto& [key, value] : fields)
            line += " " + std::string(key) + "=" + (value.is_string() ? std::string(value.get_string()) : json::serialize(value));
    }
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace mcpkit::host
