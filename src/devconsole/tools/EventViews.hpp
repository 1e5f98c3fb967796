#pragma once
// The views observe and analyze give of the capture buffers: filtered lists, and the summaries
// built from several buffers (timeline, error bundles, grouped logs, WebSocket connections,
// vitals, navigation history).

#include "devconsole/capture/ArtifactStore.hpp"
#include "devconsole/capture/CaptureBuffers.hpp"
#include "devconsole/capture/NoiseRules.hpp"
#include "devconsole/tools/CommandCall.hpp"
#include "devconsole/tools/RingQuery.hpp"

#include "mcp/protocol/Tool.hpp"

namespace mcpkit::devconsole {

/// logs / errors: level, min_level, source, url, scope (current_page: the tracked tab's entries).
/// Returns a problem with the arguments, or nothing.
std::optional<std::string> log_query(const boost::json::object& arguments, std::int64_t tracked_tab, bool errors_only,
                                     RingQuery& query, const NoiseRules& noise);
/// network_bodies: url, method, status_min/max, body_key, body_path; large bodies become artifacts.
RingQuery network_query(const boost::json::object& arguments, ArtifactStore& artifacts, const NoiseRules& noise);
RingQuery websocket_query(const boost::json::object& arguments);
RingQuery url_query(const boost::json::object& arguments);

mcp::CallToolResult websocket_status(const CaptureRing& ring, std::string_view what);
mcp::CallToolResult vitals(const CaptureRing& ring, std::string_view what, const boost::json::object& arguments);
mcp::CallToolResult timeline(const CaptureBuffers& buffers, std::string_view what, const boost::json::object& arguments,
                             std::int64_t tracked_tab);
mcp::CallToolResult error_bundles(const CaptureBuffers& buffers, std::string_view what,
                                  const boost::json::object& arguments, std::int64_t tracked_tab);
mcp::CallToolResult summarized_logs(const CaptureRing& logs, std::string_view what, const boost::json::object& arguments,
                                    std::int64_t tracked_tab);
mcp::CallToolResult navigation_history(const CaptureBuffers& buffers, std::string_view what,
                                       const boost::json::object& arguments);

/// A screenshot's data URL becomes an artifact; the answer carries its link and size only.
ResultShaper screenshot_shaper(ArtifactStore& artifacts, std::string what);

/// The message of a log entry with digits, hex ids and quoted strings made generic, for grouping.
std::string message_shape(std::string_view message);

}  // namespace mcpkit::devconsole
