#include "devconsole/tools/AuditLog.hpp"

#include "devconsole/JsonFields.hpp"
#include "devconsole/capture/CaptureBuffers.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace mcpkit::devconsole {
namespace json = boost::json;

void AuditLog::record(std::string_view tool, const json::object& arguments, const mcp::CallToolResult& result,
                      std::int64_t elapsed_ms) {
    json::object call{{"at", format_iso_time(wall_clock_ms())}, {"tool", tool},
                      {"what", mode_of(arguments, tool == "generate" ? "format" : "action")},
                      {"is_error", result.is_error}, {"elapsed_ms", elapsed_ms}};
    if (result.structured_content)
        if (auto* fields = result.structured_content->if_object()) {
            if (auto status = json_fields::text(*fields, "status"); !status.empty()) call["status"] = status;
            if (auto id = json_fields::text(*fields, "correlation_id"); !id.empty()) call["correlation_id"] = id;
        }
    std::lock_guard lock(mutex_);
    calls_.push_back(std::move(call));
    if (calls_.size() > 1000) calls_.pop_front();
}

mcp::CallToolResult AuditLog::handle(std::string_view what, const json::object& arguments) const {
    auto tool = string_argument(arguments, "tool_name");
    auto since = string_argument(arguments, "since");
    auto limit = limit_argument(arguments, "limit", 100, 1000);
    json::array calls;
    std::lock_guard lock(mutex_);
    for (auto it = calls_.rbegin(); it != calls_.rend() && calls.size() < limit; ++it) {
        if (tool && json_fields::text(*it, "tool") != *tool) continue;
        if (since && json_fields::text(*it, "at") < *since) continue;
        calls.push_back(*it);
    }
    std::reverse(calls.begin(), calls.end());
    auto count = calls.size();
    return answer(what, std::to_string(count) + " tool call(s), oldest first", json::object{{"count", count}, {"entries", std::move(calls)}});
}

}  // namespace mcpkit::devconsole
