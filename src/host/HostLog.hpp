#pragma once
// The seed's structured log (§4): one line per event on stderr with component, action and the
// ids that tie events together (sessionId, requestId), as JSON objects with --log-json or as
// readable text. Never given secrets: API keys and header values are not passed in.

#include <boost/json/object.hpp>

#include <string_view>

namespace mcpkit::host {

enum class LogLevel { debug, info, warn, error };

class HostLog {
public:
    HostLog(bool json, LogLevel level) : json_(json), level_(level) {}
    /// Whether lines of `level` are written: a line made on every turn checks first, so that its
    /// fields are not built only to be dropped.
    bool enabled(LogLevel level) const { return level >= level_; }
    void write(LogLevel level, std::string_view component, std::string_view action, boost::json::object fields = {});
    void info(std::string_view component, std::string_view action, boost::json::object fields = {}) {
        write(LogLevel::info, component, action, std::move(fields));
    }
    void warn(std::string_view component, std::string_view action, boost::json::object fields = {}) {
        write(LogLevel::warn, component, action, std::move(fields));
    }
    void error(std::string_view component, std::string_view action, boost::json::object fields = {}) {
        write(LogLevel::error, component, action, std::move(fields));
    }
    void debug(std::string_view component, std::string_view action, boost::json::object fields = {}) {
        write(LogLevel::debug, component, action, std::move(fields));
    }

private:
    bool json_;
    LogLevel level_;
};

/// "debug", "info", "warn" or "error"; info for anything else.
LogLevel log_level_named(std::string_view name);

}  // namespace mcpkit::host
