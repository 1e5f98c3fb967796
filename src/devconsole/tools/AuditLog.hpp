#pragma once
// configure({what:"audit_log"}): the tool calls this daemon answered, newest last, bounded to
// 1,000. Thread-safe.

#include "mcp/protocol/Tool.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <deque>
#include <mutex>
#include <string_view>

namespace mcpkit::devconsole {

/// Every tool call, newest last, bounded.
class AuditLog {
public:
    void record(std::string_view tool, const boost::json::object& arguments, const mcp::CallToolResult& result,
                std::int64_t elapsed_ms);
    mcp::CallToolResult handle(std::string_view what, const boost::json::object& arguments) const;

private:
    mutable std::mutex mutex_;
    std::deque<boost::json::object> calls_;
};

}  // namespace mcpkit::devconsole
