#include "analyze/server/ResponseEnvelope.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace mcpkit::analyze {
namespace json = boost::json;

std::string iso_timestamp() {
    auto now = std::chrono::system_clock::now();
    auto milliseconds = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
    std::time_t seconds = static_cast<std::time_t>(milliseconds / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[96];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(milliseconds % 1000));
    return text;
}

json::object to_json(const Envelope& envelope) {
    json::object status{{"success", envelope.success}, {"code", envelope.code}};
    if (!envelope.message.empty()) status["message"] = envelope.message;
    json::object context;
    if (envelope.session_id) context["sessionId"] = *envelope.session_id;
    if (!envelope.related_results.empty()) {
        json::array related;
        for (const std::string& id : envelope.related_results) related.push_back(json::string(id));
        context["relatedResults"] = std::move(related);
    }
    if (envelope.result_id) context["resultId"] = *envelope.result_id;
    return {{"data", envelope.data},
            {"metadata",
             {{"tool", envelope.tool},
              {"version", analyze_version},
              {"executionTime", std::round(envelope.execution_ms * 1000.0) / 1000.0},
              {"timestamp", iso_timestamp()},
              {"state", envelope.state}}},
            {"status", std::move(status)},
            {"context", std::move(context)}};
}

json::object envelope_output_schema(json::object data_schema) {
    data_schema["description"] = "The tool's result; null when status.success is false.";
    json::object metadata{
        {"type", "object"},
        {"properties",
         {{"tool", {{"type", "string"}}},
          {"version", {{"type", "string"}}},
          {"executionTime", {{"type", "number"}, {"description", "Measured duration of the call in milliseconds"}}},
          {"timestamp", {{"type", "string"}, {"description", "When the call ended, ISO 8601 UTC"}}},
          {"state", {{"type", "string"}, {"enum", {"succeeded", "failed", "cancelled"}}}}}},
        {"required", {"tool", "version", "executionTime", "timestamp"}}};
    json::object status{{"type", "object"},
                        {"properties",
                         {{"success", {{"type", "boolean"}}},
                          {"code", {{"type", "integer"}, {"description", "200 ok, 400 bad arguments, 403 outside the root, 404 not found, "
                                                                          "413 too large, 422 unparsable, 499 cancelled, 500 internal"}}},
                          {"message", {{"type", "string"}}}}},
                        {"required", {"success", "code"}}};
    json::object context{{"type", "object"},
                         {"properties",
                          {{"sessionId", {{"type", "string"}}},
                           {"relatedResults", {{"type", "array"}, {"items", {{"type", "string"}}},
                                               {"description", "resultIds of earlier calls in the session about the same files"}}},
                           {"resultId", {{"type", "string"}}}}}};
    json::object data_or_null{{"anyOf", json::array{data_schema, json::object{{"type", "null"}}}}};
    return {{"type", "object"},
            {"properties",
             {{"data", std::move(data_or_null)}, {"metadata", std::move(metadata)}, {"status", std::move(status)},
              {"context", std::move(context)}}},
            {"required", {"data", "metadata", "status"}}};
}

mcp::CallToolResult to_tool_result(const Envelope& envelope, std::string text) {
    mcp::CallToolResult result;
    result.content.push_back(mcp::Content::text(std::move(text)));
    result.structured_content = to_json(envelope);
    result.is_error = !envelope.success;
    return result;
}

}  // namespace mcpkit::analyze
