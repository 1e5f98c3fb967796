// Tools that answer on their own: every content type, tool errors, logging, progress, echo, count_slowly and
// the JSON Schema 2020-12 tool. None needs anything from the client, so they serve both eras alike.

#include "everything/FixtureParts.hpp"

#include <mcp/Error.hpp>
#include <mcp/jsonrpc/ErrorCodes.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <chrono>
#include <functional>
#include <stdexcept>

#include <unistd.h>

namespace mcpkit::everything {
namespace asio = boost::asio;
namespace json = boost::json;
using mcp::CallToolResult;
using mcp::Content;

namespace {

using namespace std::chrono_literals;

// SEP-1613 / SEP-2106: clients must receive this schema verbatim ($schema, $defs with $anchor,
// $ref, composition and conditionals, additionalProperties), so it is kept as text, not rebuilt.
constexpr std::string_view json_schema_2020_12_text = R"json({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {
    "address": {
      "$anchor": "addressDef",
      "type": "object",
      "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
    }
  },
  "properties": {
    "name": {"type": "string"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string"},
    "email": {"type": "string"}
  },
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
})json";

/// Every tool here only answers: none changes anything outside its own call, which clients such as
/// `mcpkit client tour` read from readOnlyHint before calling a tool unasked.
mcp::Tool tool(std::string name, std::string description, json::object input_schema = no_arguments()) {
    return mcp::Tool{.name = std::move(name),
                     .description = std::move(description),
                     .input_schema = std::move(input_schema),
                     .annotations = {{"readOnlyHint", true}, {"destructiveHint", false}, {"openWorldHint", false}}};
}

asio::awaitable<void> sleep_for(std::chrono::milliseconds duration) {
    asio::steady_timer timer(co_await asio::this_coro::executor, duration);
    co_await timer.async_wait(asio::use_awaitable);
}

/// The request's progress token as JavaScript's String() would print it; "0" without one.
std::string progress_token_text(const mcp::ToolCall& call) {
    if (auto* meta = call.params().if_contains("_meta"); meta && meta->is_object())
        if (auto* token = meta->get_object().if_contains("progressToken")) {
            if (token->is_string()) return std::string(token->get_string());
            if (token->is_number()) return json_text(*token);
        }
    return "0";
}

CallToolResult multiple_content_types() {
    CallToolResult result;
    result.content.push_back(Content::text("Multiple content types test:"));
    result.content.push_back(Content::image(test_image_base64, "image/png"));
    result.content.push_back(
        Content::resource_text("test://mixed-content-resource", "application/json", R"({"test":"data","value":123})"));
    return result;
}

asio::awaitable<CallToolResult> tool_with_logging(mcp::ToolCall& call) {
    // The ~50 ms gaps are the point: clients must take several notifications during one call.
    call.log(mcp::LoggingLevel::info, "Tool execution started");
    co_await sleep_for(50ms);
    call.log(mcp::LoggingLevel::info, "Tool processing data");
    co_await sleep_for(50ms);
    call.log(mcp::LoggingLevel::info, "Tool execution completed");
    co_return CallToolResult::text("Tool with logging executed successfully");
}

asio::awaitable<CallToolResult> tool_with_progress(mcp::ToolCall& call) {
    constexpr double total = 100;
    for (int step : {0, 50, 100}) {
        if (step > 0) co_await sleep_for(50ms);
        call.progress(step, total, "Completed step " + std::to_string(step) + " of 100");
    }
    co_return CallToolResult::text(progress_token_text(call));
}

asio::awaitable<CallToolResult> reconnection(mcp::ToolCall& call) {
    // Over Streamable HTTP the client loses this call's stream here and must resume it with
    // Last-Event-ID; the transport logs the result for it meanwhile. Other transports ignore it.
    call.close_stream();
    co_await sleep_for(100ms);
    co_return CallToolResult::text(
        "Reconnection test completed successfully. If you received this, the client properly reconnected after "
        "stream closure.");
}

asio::awaitable<CallToolResult> count_slowly(mcp::ToolCall& call, std::function<void(std::string_view)> log) {
    // A long call that streams: progress per step, each naming the process, so a scale-out test
    // knows which instance to kill mid-stream. A cancelled count says so in the server's log:
    // the client sees nothing of it (a cancelled request sends nothing more), tests read it there.
    auto to = call.arguments.at("to").to_number<int>();
    auto interval = std::chrono::milliseconds(call.arguments.at("interval_ms").to_number<int>());
    std::string process = "pid " + std::to_string(::getpid());
    auto* quiet = call.arguments.if_contains("silent");
    bool silent = quiet && quiet->is_bool() && quiet->get_bool();
    for (int step = 1; step <= to; ++step) {
        co_await sleep_for(interval);
        if (call.cancelled()) {
            if (log) log("count_slowly stopped at " + std::to_string(step) + " of " + std::to_string(to) + ": cancelled");
            throw mcp::Error(mcp::jsonrpc::error_code::request_cancelled, "Cancelled");
        }
        if (!silent) call.progress(step, to, "Counted " + std::to_string(step) + " on " + process);
    }
    co_return CallToolResult::text("Counted to " + std::to_string(to) + " on " + process);
}

CallToolResult streaming_elicitation(mcp::ToolCall& call) {
    // The check reads this call's stream: only notifications may precede the result, never a
    // request to the client. Progress goes out only when the client asked for it.
    call.progress(50, 100);
    return CallToolResult::text("Streaming complete");
}

}  // namespace

void register_content_tools(mcp::Server& server) {
    server.add_tool(tool("test_simple_text", "Tests simple text content response"),
                    [](mcp::ToolCall&) { return CallToolResult::text("This is a simple text response for testing."); });
    server.add_tool(tool("test_image_content", "Tests image content response"), [](mcp::ToolCall&) {
        return CallToolResult{.content = {Content::image(test_image_base64, "image/png")}};
    });
    server.add_tool(tool("test_audio_content", "Tests audio content response"), [](mcp::ToolCall&) {
        return CallToolResult{.content = {Content::audio(test_audio_base64, "audio/wav")}};
    });
    server.add_tool(tool("test_embedded_resource", "Tests embedded resource content response"), [](mcp::ToolCall&) {
        return CallToolResult{.content = {Content::resource_text("test://embedded-resource", "text/plain",
                                                                 "This is an embedded resource content.")}};
    });
    server.add_tool(
        tool("test_multiple_content_types", "Tests response with multiple content types (text, image, resource)"),
        [](mcp::ToolCall&) { return multiple_content_types(); });
    server.add_tool(tool("test_tool_with_logging", "Tests tool that emits log messages during execution"),
                    tool_with_logging);
    server.add_tool(tool("test_tool_with_progress", "Tests tool that reports progress notifications"),
                    tool_with_progress);
    server.add_tool(tool("test_error_handling", "Tests error response handling"), [](mcp::ToolCall&) -> CallToolResult {
        // Any exception but mcp::Error becomes an isError result carrying its message.
        throw std::runtime_error("This tool intentionally returns an error for testing");
    });
    server.add_tool(tool("test_reconnection",
                         "Tests SSE stream disconnection and client reconnection (SEP-1699). Server will close the "
                         "stream mid-call and send the result after client reconnects."),
                    reconnection);
    server.add_tool(
        tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
             json::parse(json_schema_2020_12_text).as_object()),
        [](mcp::ToolCall& call) {
            return CallToolResult::text("JSON Schema 2020-12 tool called with: " + json_text(call.arguments));
        });
    server.add_tool(tool("test_streaming_elicitation", "Diagnostic tool validating response progress streams"),
                    streaming_elicitation);
    server.add_tool(tool("test_logging_tool", "Diagnostic logging validator tool"), [](mcp::ToolCall& call) {
        // A 2026 request without a logLevel gets no log at all; the context enforces that.
        call.log(mcp::LoggingLevel::info, "Diagnostic trace logging activated");
        return CallToolResult::text("Logging evaluated");
    });
    // SEP-2243: `region` travels in an Mcp-Param-Region header too, which the server checks.
    json::object region{{"type", "string"}, {"description", "Region to run in"}, {"x-mcp-header", "Region"}};
    server.add_tool(tool("test_custom_header", "Tests x-mcp-header: region is mirrored in Mcp-Param-Region",
                         mcp::schema_object({{"region", region}}, {"region"})),
                    [](mcp::ToolCall& call) {
                        return CallToolResult::text("Region: " + std::string(call.arguments.at("region").as_string()));
                    });
    json::object count_to{{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}, {"description", "Last number"}};
    json::object interval{
        {"type", "integer"}, {"minimum", 1}, {"maximum", 10000}, {"description", "Milliseconds between numbers"}};
    server.add_tool(tool("count_slowly",
                         "Counts to `to`, one number every `interval_ms`, reporting each as progress (unless "
                         "`silent`); names the process that counted (for scale-out tests)",
                         mcp::schema_object({{"to", count_to},
                                             {"interval_ms", interval},
                                             {"silent", {{"type", "boolean"},
                                                         {"description", "No progress: a long call that says "
                                                                         "nothing until its end (for timeouts)"}}}},
                                            {"to", "interval_ms"})),
                    [log = server.options().log](mcp::ToolCall& call) { return count_slowly(call, log); });
    server.add_tool(tool("echo", "Echoes the given text back as text content",
                         mcp::schema_object({{"text", {{"type", "string"}}}}, {"text"})),
                    [](mcp::ToolCall& call) { return CallToolResult::text(call.arguments.at("text").as_string()); });
}

}  // namespace mcpkit::everything
