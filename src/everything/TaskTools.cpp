// The tasks fixture (the conformance suite's tasks-* scenarios, names and behaviour from its
// reference server): a call that never becomes a task, one that may, ones that must, one that
// fails at the protocol level, ones that stop to ask questions, and one that asks before the task
// starts. Each is an ordinary tool handler: the server makes it a task.

#include "everything/FixtureParts.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcpkit::everything {
namespace asio = boost::asio;
namespace json = boost::json;
using mcp::CallToolResult;
using mcp::Outcome;
using namespace std::chrono_literals;

namespace {

mcp::Tool task_tool(std::string name, std::string description, json::object input_schema = no_arguments()) {
    mcp::Tool tool;
    tool.name = std::move(name);
    tool.description = std::move(description);
    tool.input_schema = std::move(input_schema);
    return tool;
}

/// Waits `duration`, in steps short enough that a cancelled task stops within a tenth of a second.
asio::awaitable<bool> wait_unless_cancelled(const mcp::ToolCall& call, std::chrono::milliseconds duration) {
    auto executor = co_await asio::this_coro::executor;
    auto end = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < end) {
        if (call.cancelled()) co_return false;
        asio::steady_timer step(executor, std::min<std::chrono::steady_clock::duration>(100ms, end - std::chrono::steady_clock::now()));
        co_await step.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    co_return !call.cancelled();
}

std::string text_argument(const mcp::ToolCall& call, std::string_view name, std::string fallback) {
    auto* value = call.arguments.if_contains(name);
    return value && value->is_string() ? std::string(value->get_string()) : fallback;
}

json::object confirm_schema() {
    return json::object{{"type", "object"},
                        {"properties", {{"confirm", {{"type", "boolean"}}}}},
                        {"required", json::array{"confirm"}}};
}

bool accepted(const json::value* answer) {
    if (!answer || !answer->is_object()) return false;
    auto* action = answer->get_object().if_contains("action");
    return action && action->is_string() && action->get_string() == "accept";
}

/// The field of an accepted form answer, or nothing.
const json::value* accepted_field(const json::value* answer, std::string_view field) {
    if (!accepted(answer)) return nullptr;
    auto* content = answer->get_object().if_contains("content");
    return content && content->is_object() ? content->get_object().if_contains(field) : nullptr;
}

std::string accepted_text(const json::value* answer, std::string_view field, std::string fallback) {
    auto* value = accepted_field(answer, field);
    return value && value->is_string() ? std::string(value->get_string()) : fallback;
}

}  // namespace

void register_task_tools(mcp::Server& server) {
    json::object greet_schema{{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}};
    server.add_tool(task_tool("greet", "Says hello at once (never a task)", greet_schema), [](mcp::ToolCall& call) {
        return CallToolResult::text("Hello, " + text_argument(call, "name", "World") + "!");
    });

    json::object compute_schema{{"type", "object"},
                                {"properties", {{"seconds", {{"type", "number"}, {"minimum", 0}, {"maximum", 3600}}},
                                                {"label", {{"type", "string"}}}}}};
    server.add_tool(
        task_tool("slow_compute", "Computes for `seconds` seconds; a task when the client can poll", compute_schema),
        [](mcp::ToolCall& call) -> asio::awaitable<CallToolResult> {
            double seconds = 1;
            if (auto* value = call.arguments.if_contains("seconds"); value && value->is_number())
                seconds = value->to_number<double>();
            std::string label = text_argument(call, "label", "unnamed");
            bool finished = co_await wait_unless_cancelled(call, std::chrono::milliseconds(static_cast<long>(seconds * 1000)));
            if (!finished) co_return CallToolResult::text("Computation \"" + label + "\" was cancelled");
            co_return CallToolResult::text("Computation \"" + label + "\" completed after " +
                                           std::to_string(static_cast<long>(seconds)) + " seconds. Result: 42.");
        },
        {.task_support = mcp::TaskSupport::optional});

    server.add_tool(
        task_tool("failing_job", "Fails as a tool (isError) after a second; runs only as a task"),
        [](mcp::ToolCall& call) -> asio::awaitable<CallToolResult> {
            co_await wait_unless_cancelled(call, 1s);
            co_return CallToolResult::error("The job failed: the input was unusable (an intended tool error)");
        },
        {.task_support = mcp::TaskSupport::required});

    server.add_tool(
        task_tool("protocol_error_job", "Fails at the protocol level (an internal error) after half a second"),
        [](mcp::ToolCall& call) -> asio::awaitable<CallToolResult> {
            co_await wait_unless_cancelled(call, 500ms);
            throw mcp::Error::internal("The job crashed (an intended protocol error)");
        },
        {.task_support = mcp::TaskSupport::required});

    json::object file_schema{{"type", "object"}, {"properties", {{"filename", {{"type", "string"}}}}}};
    server.add_tool(
        task_tool("confirm_delete", "Asks to confirm, then deletes (nothing: a fixture)", file_schema),
        [](mcp::ToolCall& call) -> Outcome<CallToolResult> {
            std::string filename = text_argument(call, "filename", "file.txt");
            const json::value* answer = call.input_response("confirm");
            if (!answer) return mcp::InputRequired{}.elicit("confirm", "Delete '" + filename + "'?", confirm_schema());
            auto* confirm = accepted_field(answer, "confirm");
            if (confirm && confirm->is_bool() && confirm->get_bool()) return CallToolResult::text("deleted '" + filename + "'");
            return CallToolResult::text("kept '" + filename + "'");
        },
        {.task_support = mcp::TaskSupport::required});

    server.add_tool(
        task_tool("multi_input", "Asks two questions at once, then answers with both"),
        [](mcp::ToolCall& call) -> Outcome<CallToolResult> {
            const json::value* name = call.input_response("name");
            const json::value* confirm = call.input_response("confirm");
            if (!name || !confirm) {
                json::object name_schema{{"type", "object"},
                                         {"properties", {{"name", {{"type", "string"}}}}},
                                         {"required", json::array{"name"}}};
                return mcp::InputRequired{}
                    .elicit("name", "What is your name?", name_schema)
                    .elicit("confirm", "Shall I go on?", confirm_schema());
            }
            std::string who = accepted_text(name, "name", "someone");
            return CallToolResult::text("Hello, " + who + (accepted(confirm) ? " (confirmed)" : " (not confirmed)"));
        },
        {.task_support = mcp::TaskSupport::required});

    server.add_tool(
        task_tool("test_tool_with_task", "Asks for a name before the task starts, then greets in the task"),
        [](mcp::ToolCall& call) -> Outcome<CallToolResult> {
            const json::value* answer = call.input_response("user_name");
            if (!answer) {
                json::object schema{{"type", "object"},
                                    {"properties", {{"name", {{"type", "string"}}}}},
                                    {"required", json::array{"name"}}};
                return mcp::InputRequired{}.elicit("user_name", "What is your name?", schema);
            }
            std::string who = accepted_text(answer, "name", "stranger");
            return CallToolResult::text("Hello, " + who + "! (computed in task " + call.task_id() + ")");
        },
        {.task_support = mcp::TaskSupport::required, .input_before_task = true});
}

}  // namespace mcpkit::everything
