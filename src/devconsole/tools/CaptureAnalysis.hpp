#pragma once
// Analyses computed in the daemon over the capture buffers (no command to the extension).

#include "devconsole/capture/CaptureBuffers.hpp"

#include "mcp/protocol/Tool.hpp"

#include <boost/json/object.hpp>

namespace mcpkit::devconsole {

mcp::CallToolResult error_clusters(const CaptureBuffers& buffers, std::string_view what,
                                   const boost::json::object& arguments, std::int64_t tracked_tab);
mcp::CallToolResult performance_report(const CaptureBuffers& buffers, std::string_view what,
                                       const boost::json::object& arguments);
mcp::CallToolResult third_party_audit(const CaptureBuffers& buffers, std::string_view what,
                                      const boost::json::object& arguments, std::string_view page_url);
mcp::CallToolResult api_validation(CaptureBuffers& buffers, std::string_view what, const boost::json::object& arguments);
mcp::CallToolResult security_audit(const CaptureBuffers& buffers, std::string_view what,
                                   const boost::json::object& arguments);

/// "https://a.example:8443/x?y" → "https://a.example:8443"; "" for a relative URL.
std::string origin_of(std::string_view url);

}  // namespace mcpkit::devconsole
