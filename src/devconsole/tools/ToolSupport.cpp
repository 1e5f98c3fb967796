#include "devconsole/tools/ToolSupport.hpp"

#include "devconsole/capture/CaptureBuffers.hpp"
#include "devconsole/tools/ToolParameters.hpp"

#include <boost/json.hpp>

#include <charconv>

namespace mcpkit::devconsole {
namespace json = boost::json;

namespace {

const json::object& parameters_of(std::string_view tool) {
    static const json::object all = json::parse(tool_parameters()).as_object();
    return all.at(tool).as_object();
}

json::object output_schema() {
    // Every mode answers an object naming its mode and status; the rest depends on the mode.
    return json::object{
        {"type", "object"},
        {"properties",
         json::object{
             {"what", json::object{{"type", "string"}, {"description", "The mode that answered"}}},
             {"status", json::object{{"type", "string"},
                                     {"description", "ok, or a command's state: queued, still_processing, complete, "
                                                     "error, expired, timeout, cancelled"}}},
             {"correlation_id", json::object{{"type", "string"}, {"description", "The command's id, for command_result"}}},
             {"count", json::object{{"type", "integer"}}},
             {"entries", json::object{{"type", "array"}, {"description", "Captured items, oldest first"}}},
             {"result", json::object{{"description", "What the extension answered"}}},
             {"error", json::object{{"type", "string"}}},
             {"message", json::object{{"type", "string"}}},
             {"metadata", json::object{{"type", "object"}, {"description", "Cursors, buffer fill, evictions"}}},
         }},
        {"required", json::array{"what", "status"}},
    };
}

}  // namespace

mcp::Tool make_tool(std::string_view name, std::string description) {
    const auto& parameters = parameters_of(name);
    mcp::Tool tool;
    tool.name = std::string(name);
    tool.description = std::move(description);
    json::object properties = parameters.at("properties").as_object();
    // Besides the original's parameters: paging where it had none.
    if (!properties.contains("limit"))
        properties["limit"] = json::object{{"type", "number"}, {"description", "Max items to return"}};
    tool.input_schema = json::object{{"type", "object"}, {"properties", std::move(properties)}};
    tool.output_schema = output_schema();
    return tool;
}

std::vector<std::string> tool_modes(std::string_view name) {
    std::vector<std::string> modes;
    for (const auto& mode : parameters_of(name).at("modes").as_array()) modes.emplace_back(mode.as_string());
    return modes;
}

std::string mode_of(const json::object& arguments, std::string_view alias) {
    if (auto what = string_argument(arguments, "what"); what && !what->empty()) return *what;
    if (!alias.empty())
        if (auto value = string_argument(arguments, alias); value && !value->empty()) return *value;
    return {};
}

std::optional<std::string> string_argument(const json::object& arguments, std::string_view name) {
    if (auto* value = arguments.if_contains(name); value && value->is_string()) return std::string(value->get_string());
    return std::nullopt;
}

std::optional<double> number_argument(const json::object& arguments, std::string_view name) {
    if (auto* value = arguments.if_contains(name); value && value->is_number()) return value->to_number<double>();
    return std::nullopt;
}

std::optional<bool> bool_argument(const json::object& arguments, std::string_view name) {
    if (auto* value = arguments.if_contains(name); value && value->is_bool()) return value->get_bool();
    return std::nullopt;
}

std::size_t limit_argument(const json::object& arguments, std::string_view name, std::size_t fallback,
                           std::size_t maximum) {
    auto value = number_argument(arguments, name);
    if (!value || *value < 1) return fallback;
    return *value > static_cast<double>(maximum) ? maximum : static_cast<std::size_t>(*value);
}

mcp::CallToolResult answer(std::string_view what, std::string summary, json::object fields, std::string_view status) {
    fields["what"] = what;
    if (!fields.contains("status")) fields["status"] = status;
    mcp::CallToolResult result;
    std::string text = std::move(summary);
    text.push_back('\n');
    text += json::serialize(fields);
    result.content.push_back(mcp::Content::text(text));
    result.structured_content = std::move(fields);
    return result;
}

mcp::CallToolResult failure(std::string_view what, std::string_view error_code, std::string message,
                            json::object fields) {
    fields["error"] = error_code;
    fields["message"] = message;
    if (!fields.contains("status")) fields["status"] = "error";
    auto result = answer(what, "Error (" + std::string(error_code) + "): " + message, std::move(fields));
    result.is_error = true;
    return result;
}

mcp::CallToolResult unsupported(std::string_view tool, std::string_view what, std::string_view reason) {
    return failure(what, "unsupported_mode",
                   std::string(tool) + "({what:\"" + std::string(what) + "\"}) is not served by mcpkit devconsole: " +
                       std::string(reason));
}

mcp::CallToolResult unknown_mode(std::string_view tool, std::string_view what) {
    std::string known;
    for (const auto& mode : tool_modes(tool)) known += (known.empty() ? "" : ", ") + mode;
    if (what.empty())
        return failure("", "missing_what", "\"what\" is required: one of " + known);
    return failure(what, "unknown_mode", "\"what\" is \"" + std::string(what) + "\"; use one of " + known);
}

std::optional<std::uint64_t> parse_cursor(std::string_view cursor) {
    auto colon = cursor.rfind(':');
    auto digits = colon == std::string_view::npos ? cursor : cursor.substr(colon + 1);
    std::uint64_t sequence = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), sequence);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return sequence;
}

std::string make_cursor(std::int64_t time_ms, std::uint64_t sequence) {
    return format_iso_time(time_ms) + ":" + std::to_string(sequence);
}

}  // namespace mcpkit::devconsole
