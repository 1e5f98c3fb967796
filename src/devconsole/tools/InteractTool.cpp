// interact: acts in the tracked tab through the extension. Every mode is one command (two for the
// composite ones), waited for by default, cancellable through MCP cancellation.

#include "devconsole/tools/CommandCall.hpp"
#include "devconsole/tools/DevConsoleTools.hpp"
#include "devconsole/tools/EventViews.hpp"
#include "devconsole/tools/Interaction.hpp"
#include "devconsole/tools/PageStates.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

#include <array>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

constexpr std::string_view description =
    "Act in the browser tab the user tracks (the extension's popup), through the mcpkit devconsole extension.\n"
    "Synchronous by default: waits up to 15 s for the result, then answers still_processing with a correlation_id "
    "for observe({what:'command_result'}); background:true answers at once. MCP cancellation cancels a command.\n"
    "Page: execute_js (script, timeout_ms; a page whose CSP forbids eval is refused with the reason), navigate "
    "(url), refresh, back, forward, new_tab, switch_tab, close_tab, navigate_and_wait_for (url, wait_for), "
    "screenshot (a resource link).\nElements (selector: CSS or text=, role=, placeholder=, label=, aria-label=): "
    "click, type (text, clear), select (value), check (checked), get_text, get_value, get_attribute (name), "
    "set_attribute (name, value), focus, scroll_to, wait_for (timeout_ms), key_press (text: Enter, Tab, Escape, "
    "Backspace, ArrowDown, ArrowUp, Space), paste (text), highlight (duration_ms), list_interactive (each element "
    "with an index and element_id to target later), get_readable, get_markdown, fill_form (fields), "
    "fill_form_and_submit (fields, submit_selector), dismiss_top_overlay, confirm_top_dialog, subtitle (text; empty "
    "clears).\nStorage: set_storage, delete_storage, clear_storage (storage_type, key, value), set_cookie, "
    "delete_cookie (name, value, domain, path). States: save_state, load_state (include_url), list_states, "
    "delete_state (snapshot_name).";

constexpr std::array<std::string_view, 20> element_actions{
    "click",        "type",         "select",           "check",        "get_text",          "get_value",
    "get_attribute", "set_attribute", "focus",          "scroll_to",    "wait_for",          "key_press",
    "paste",        "highlight",    "list_interactive", "get_readable", "get_markdown",      "subtitle",
    "dismiss_top_overlay", "confirm_top_dialog"};
constexpr std::array<std::string_view, 7> browser_actions{"navigate", "refresh", "back", "forward",
                                                          "new_tab",  "switch_tab", "close_tab"};
constexpr std::array<std::string_view, 5> storage_actions{"set_storage", "delete_storage", "clear_storage", "set_cookie",
                                                          "delete_cookie"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& list, std::string_view what) {
    for (auto item : list)
        if (item == what) return true;
    return false;
}

/// What an element action needs before it is sent; a problem names the field.
std::optional<std::string> check_element_arguments(std::string_view what, const json::object& arguments) {
    bool needs_selector = what != "list_interactive" && what != "get_readable" && what != "get_markdown" &&
                          what != "key_press" && what != "paste" && what != "subtitle" &&
                          what != "dismiss_top_overlay" && what != "confirm_top_dialog";
    bool has_target = string_argument(arguments, "selector") || string_argument(arguments, "element_id") ||
                      number_argument(arguments, "index");
    if (needs_selector && !has_target)
        return "\"selector\" is required for " + std::string(what) +
               " (CSS, or text=…, role=…, label=…), or element_id / index from list_interactive";
    if ((what == "type" || what == "key_press" || what == "paste") && !string_argument(arguments, "text"))
        return "\"text\" is required for " + std::string(what);
    if ((what == "get_attribute" || what == "set_attribute") && !string_argument(arguments, "name"))
        return "\"name\" (the attribute) is required for " + std::string(what);
    if (what == "select" && !string_argument(arguments, "value")) return "\"value\" is required for select";
    return std::nullopt;
}

}  // namespace

asio::awaitable<mcp::CallToolResult> run_interact(DevConsole& console, mcp::ToolCall& call, json::object arguments) {
    auto what = mode_of(arguments, "action");
    arguments["what"] = what;
    CommandRequest request;
    request.what = what;
    request.origin = "interact " + what;
    ResultShaper shape;
    if (what == "execute_js") {
        if (!string_argument(arguments, "script"))
            co_return failure(what, "missing_script", "\"script\" is required: the JavaScript to run in the page");
        request.type = "execute";
        request.prefix = "exec";
    } else if (one_of(browser_actions, what)) {
        if ((what == "navigate" || what == "new_tab") && !string_argument(arguments, "url"))
            co_return failure(what, "missing_url", "\"url\" is required for " + what);
        arguments["action"] = what;
        request.type = "browser_action";
        request.prefix = "nav";
    } else if (one_of(element_actions, what) || what == "fill_form") {
        if (auto problem = check_element_arguments(what, arguments); problem && what != "fill_form")
            co_return failure(what, "invalid_argument", *problem);
        if (what == "fill_form" && !arguments.contains("fields"))
            co_return failure(what, "missing_fields", "\"fields\" is required: [{selector, value}, …]");
        arguments["action"] = what;
        request.type = "dom_action";
        request.prefix = "dom_" + what;
    } else if (one_of(storage_actions, what)) {
        arguments["action"] = what;
        request.type = "storage";
        request.prefix = "storage";
    } else if (what == "screenshot") {
        request.type = "screenshot";
        request.prefix = "screenshot";
        shape = screenshot_shaper(console.artifacts(), what);
    } else if (what == "navigate_and_wait_for" || what == "fill_form_and_submit") {
        // Two commands: the first must succeed before the second is sent.
        bool navigate = what == "navigate_and_wait_for";
        if (navigate && (!string_argument(arguments, "url") || !string_argument(arguments, "wait_for")))
            co_return failure(what, "invalid_argument", "\"url\" and \"wait_for\" (a selector) are required");
        if (!navigate && !arguments.contains("fields"))
            co_return failure(what, "missing_fields", "\"fields\" is required: [{selector, value}, …]");
        CommandRequest first;
        first.what = what;
        first.origin = request.origin;
        first.params = arguments;
        first.params["action"] = navigate ? "navigate" : "fill_form";
        first.type = navigate ? "browser_action" : "dom_action";
        first.prefix = navigate ? "nav" : "dom_fill_form";
        auto first_result = co_await run_command(console, call, first);
        auto* first_fields = first_result.structured_content ? first_result.structured_content->if_object() : nullptr;
        if (first_result.is_error || !first_fields || first_fields->at("status").as_string() != "complete")
            co_return first_result;
        request.params = arguments;
        request.type = "dom_action";
        if (navigate) {
            request.params["action"] = "wait_for";
            request.params["selector"] = arguments.at("wait_for");
            request.prefix = "dom_wait_for";
        } else {
            auto submit = string_argument(arguments, "submit_selector");
            request.params["action"] = "click";
            request.params["selector"] = submit ? *submit : std::string("[type=submit]");
            request.prefix = "dom_click";
        }
        auto second = co_await run_command(console, call, request);
        if (second.structured_content)
            if (auto* fields = second.structured_content->if_object())
                (*fields)["first_step"] = first_fields->at("result");
        co_return second;
    } else if (what == "run_a11y_and_export_sarif") {
        co_return failure(what, "use_generate",
                          "Use generate({what:'sarif'}): it runs the accessibility audit and returns the SARIF "
                          "report as a resource");
    } else if (is_page_state_mode(what)) {
        co_return co_await run_page_state(console, call, what, std::move(arguments));
    } else if (what == "record_start" || what == "record_stop" || what == "draw_mode_start") {
        co_return unsupported("interact", what,
                              "tab recording and draw mode are not part of the mcpkit extension: it captures console, "
                              "network, WebSocket and actions continuously instead (observe timeline)");
    } else if (what == "upload") {
        co_return unsupported("interact", what,
                              "an extension cannot put a file from disk into a page's file input (only the user or "
                              "the DevTools protocol can); ask the user to pick the file");
    } else if (what == "open_composer" || what == "submit_active_composer") {
        co_return unsupported("interact", what,
                              "composer heuristics for particular web apps are not built in; use click, type and "
                              "key_press (Enter) on explicit selectors");
    } else {
        co_return unknown_mode("interact", what);
    }
    request.params = std::move(arguments);
    co_return co_await run_command(console, call, request, shape);
}

void add_interact_tool(mcp::Server& server, DevConsole& console) {
    auto tool = make_tool("interact", std::string(description));
    tool.annotations = json::object{{"readOnlyHint", false}, {"destructiveHint", true}, {"openWorldHint", true}};
    server.add_tool(tool, audited(console, "interact", [&console](mcp::ToolCall& call) -> asio::awaitable<mcp::CallToolResult> {
        co_return co_await run_interact(console, call, call.arguments);
    }));
}

}  // namespace mcpkit::devconsole
