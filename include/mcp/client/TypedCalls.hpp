#pragma once
// What the client's typed calls need: arguments from a described struct, a result's structured
// content checked, and ToolError for a call the server answered with isError.

#include "mcp/Export.hpp"
#include "mcp/protocol/Tool.hpp"
#include "mcp/typed/TypedJson.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace mcp {

/// A typed tool call the server answered with isError: what() is the tool's text.
class MCP_API ToolError : public std::runtime_error {
public:
    /// An error for `tool`, whose what() reads "tool TOOL failed: MESSAGE".
    ToolError(std::string tool, const std::string& message, CallToolResult result)
        : std::runtime_error("tool " + tool + " failed: " + message), tool_(std::move(tool)), result_(std::move(result)) {}
    /// The name of the tool that failed.
    const std::string& tool() const { return tool_; }
    /// The whole result the server sent, content and all.
    const CallToolResult& result() const { return result_; }

private:
    std::string tool_;
    CallToolResult result_;
};

namespace detail {

template <class In>
boost::json::object arguments_object(const In& arguments) {
    if constexpr (std::is_same_v<In, boost::json::object>) {
        return arguments;
    } else {
        static_assert(described_struct<In>, "tool arguments are a described struct or a boost::json::object");
        return std::move(to_json_value(arguments).as_object());
    }
}

/// The structured content of a successful result (or the JSON its first text block holds, for
/// servers that only send text); throws ToolError for isError and std::runtime_error when none.
MCP_API const boost::json::value& structured_result(std::string_view tool, CallToolResult& result);

template <class Args>
boost::json::object prompt_argument_strings(const Args& arguments) {
    boost::json::object strings;
    boost::json::value fields = to_json_value(arguments);
    for (auto& [key, value] : fields.as_object()) {
        if (value.is_null()) continue;
        if (value.is_string()) strings[key] = std::move(value);
        else strings[key] = boost::json::serialize(value);
    }
    return strings;
}

}  // namespace detail
}  // namespace mcp
