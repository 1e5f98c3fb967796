// analyze: a closer look, in the page (DOM, accessibility, forms, styles: commands to the
// extension) or over what was captured (errors grouped, performance, third parties, API shapes,
// security findings: computed here).

#include "devconsole/tools/CaptureAnalysis.hpp"
#include "devconsole/tools/CommandCall.hpp"
#include "devconsole/tools/DevConsoleTools.hpp"
#include "devconsole/tools/EventViews.hpp"
#include "devconsole/tools/LinkChecks.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

constexpr std::string_view description =
    "Look closer at the tracked page or at what was captured.\nIn the page (a command to the extension; "
    "synchronous by default, background:true for a correlation_id): dom (selector), accessibility (a tree and "
    "violations; large trees as a resource), page_summary, computed_styles (selector), forms, form_validation.\n"
    "Over the capture buffers: error_clusters (errors grouped by message and top frame), performance (vitals and "
    "the slowest requests), history, third_party_audit (origins other than first_party_origins), api_validation "
    "(operation analyze|report|clear: each endpoint's JSON shape and its changes), security_audit (secrets in "
    "URLs, logs and bodies; plain-HTTP requests).\nLinks: link_health (the page's links, domain filter), "
    "link_validation (urls): each requested by the daemon, max_workers at a time, timeout_ms each.";

/// A large answer (an accessibility tree) goes to an artifact; the answer keeps its summary.
ResultShaper large_result_shaper(ArtifactStore& artifacts, std::string what, std::string field) {
    return [&artifacts, what, field](const CommandSnapshot& snapshot) {
        auto result = command_answer(snapshot, what);
        auto* object = snapshot.result.if_object();
        if (!object || !object->contains(field)) return result;
        auto text = json::serialize(object->at(field));
        if (text.size() <= 16 * 1024) return result;
        auto uri = artifacts.add(what + " of " + [&] {
            auto* url = object->if_contains("effective_tab_url");
            return url && url->is_string() ? std::string(url->get_string()) : std::string("the page");
        }(), "application/json", text, false);
        json::object fields = result.structured_content->as_object();
        json::object summary = *object;
        summary[field] = "(" + std::to_string(text.size()) + " bytes, at " + uri + ")";
        summary[field + "_uri"] = uri;
        fields["result"] = std::move(summary);
        auto shaped = answer(what, "Command " + snapshot.correlation_id + ": complete; " + field + " saved as " + uri,
                             std::move(fields), "complete");
        shaped.content.push_back(mcp::Content::resource_link(uri, what, "application/json"));
        return shaped;
    };
}

}  // namespace

void add_analyze_tool(mcp::Server& server, DevConsole& console) {
    auto tool = make_tool("analyze", std::string(description));
    tool.annotations = json::object{{"readOnlyHint", true}, {"openWorldHint", false}};
    server.add_tool(tool, audited(console, "analyze", [&console](mcp::ToolCall& call) -> asio::awaitable<mcp::CallToolResult> {
        json::object arguments = call.arguments;
        auto what = mode_of(arguments);
        auto tracked = console.link().tracked_tab();
        auto& buffers = console.buffers();
        if (what == "error_clusters") co_return error_clusters(buffers, what, arguments, tracked.id);
        if (what == "performance") co_return performance_report(buffers, what, arguments);
        if (what == "history") co_return navigation_history(buffers, what, arguments);
        if (what == "third_party_audit") co_return third_party_audit(buffers, what, arguments, tracked.url);
        if (what == "api_validation") co_return api_validation(buffers, what, arguments);
        if (what == "security_audit") co_return security_audit(buffers, what, arguments);
        CommandRequest request;
        request.what = what;
        request.origin = "analyze " + what;
        request.params = arguments;
        ResultShaper shape;
        if (what == "dom") {
            if (!string_argument(arguments, "selector"))
                co_return failure(what, "missing_selector", "\"selector\" is required: a CSS selector to look up");
            request.type = "dom";
        } else if (what == "accessibility") {
            request.type = "a11y";
            shape = large_result_shaper(console.artifacts(), what, "tree");
        } else if (what == "page_summary") {
            request.type = "page_info";
        } else if (what == "computed_styles") {
            if (!string_argument(arguments, "selector"))
                co_return failure(what, "missing_selector", "\"selector\" is required: the element whose styles to read");
            request.type = "computed_styles";
        } else if (what == "forms" || what == "form_validation") {
            request.type = "form_discovery";
        } else if (what == "link_health" || what == "link_validation") {
            co_return co_await check_links(console, call, what, arguments);
        } else if (what == "annotations" || what == "annotation_detail" || what == "draw_history" || what == "draw_session") {
            co_return unsupported("analyze", what, "draw mode (annotating the page by hand) is not part of the mcpkit extension");
        } else if (what == "visual_baseline" || what == "visual_diff" || what == "visual_baselines") {
            co_return unsupported("analyze", what,
                                  "pixel baselines are not kept; take screenshots with observe({what:'screenshot'}) "
                                  "and compare them as resources");
        } else {
            co_return unknown_mode("analyze", what);
        }
        request.prefix = request.type;
        co_return co_await run_command(console, call, request, shape);
    }));
}

}  // namespace mcpkit::devconsole
