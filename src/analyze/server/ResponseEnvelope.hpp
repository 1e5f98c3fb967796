#pragma once
// The seed's response envelope, which every analyze tool answers with:
//   {data, metadata{tool, version, executionTime, timestamp}, status{success, code, message?},
//    context{sessionId?, relatedResults?}}
// sent as structuredContent (with the matching outputSchema on the tool) plus a text rendering.

#include <mcp/protocol/Tool.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcpkit::analyze {

inline constexpr std::string_view analyze_version = "1.0.0";

/// HTTP-like codes, as the seed uses them.
namespace status_code {
inline constexpr int ok = 200;
inline constexpr int bad_request = 400;
inline constexpr int forbidden = 403;
inline constexpr int not_found = 404;
inline constexpr int too_large = 413;
inline constexpr int too_many = 429;
inline constexpr int cancelled = 499;
inline constexpr int internal_error = 500;
}  // namespace status_code

struct Envelope {
    boost::json::value data;
    std::string tool;
    double execution_ms = 0;
    std::string state;  ///< the call's final state (metadata.state)
    bool success = true;
    int code = status_code::ok;
    std::string message;
    std::optional<std::string> session_id;
    std::vector<std::string> related_results;
    std::optional<std::string> result_id;
};

boost::json::object to_json(const Envelope& envelope);
/// The envelope's schema with `data` described by `data_schema`.
boost::json::object envelope_output_schema(boost::json::object data_schema);
/// structuredContent = the envelope; text = `text` (a readable rendering); isError on failure.
mcp::CallToolResult to_tool_result(const Envelope& envelope, std::string text);

/// ISO 8601 UTC with milliseconds, like JavaScript's toISOString().
std::string iso_timestamp();

}  // namespace mcpkit::analyze
