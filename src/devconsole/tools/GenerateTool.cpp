// generate: artifacts built from what was captured: a HAR file, a Playwright reproduction of the
// user's actions (or a test with assertions), a pull-request summary, a Content-Security-Policy.
// Each is kept as a resource; the answer carries its link and a short preview.

#include "devconsole/JsonFields.hpp"
#include "devconsole/tools/CaptureAnalysis.hpp"
#include "devconsole/tools/CommandCall.hpp"
#include "devconsole/tools/DevConsoleTools.hpp"
#include "devconsole/tools/GeneratedArtifacts.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

constexpr std::string_view description =
    "Build artifacts from the capture: har (HTTP Archive of the captured fetch/XHR; url, method, status_min/max), "
    "reproduction (a Playwright script replaying the user's actions; last_n, base_url, error_message), test (the "
    "same as a Playwright test with assertions: assert_no_errors, assert_network; test_name), pr_summary (markdown: "
    "errors, failed requests, actions), csp (a Content-Security-Policy from the origins seen; mode strict|moderate|"
    "report_only, exclude_origins), sarif (the page's accessibility audit as SARIF 2.1.0; scope). Each is saved as a resource (devconsole://artifacts/…): the answer gives its "
    "link, size and a preview.";

mcp::CallToolResult artifact_answer(DevConsole& console, std::string_view what, GeneratedArtifact artifact) {
    auto size = artifact.content.size();
    auto preview = utf8_prefix(artifact.content, 1500);
    auto uri = console.artifacts().add(artifact.name, artifact.mime_type, std::move(artifact.content), false);
    auto result = answer(what, artifact.summary + "; saved as " + uri,
                         json::object{{"uri", uri}, {"mime_type", artifact.mime_type}, {"bytes", size},
                                      {"preview", preview}, {"details", std::move(artifact.details)}});
    result.content.push_back(mcp::Content::resource_link(uri, artifact.name, artifact.mime_type));
    return result;
}

}  // namespace

void add_generate_tool(mcp::Server& server, DevConsole& console) {
    auto tool = make_tool("generate", std::string(description));
    tool.annotations = json::object{{"readOnlyHint", true}, {"openWorldHint", false}};
    server.add_tool(tool, audited(console, "generate", [&console](mcp::ToolCall& call) -> asio::awaitable<mcp::CallToolResult> {
        const auto& arguments = call.arguments;
        auto what = mode_of(arguments, "format");
        auto& buffers = console.buffers();
        auto page = console.link().tracked_tab().url;
        if (what == "har") co_return artifact_answer(console, what, make_har(buffers, arguments));
        if (what == "reproduction" || what == "test" || what == "test_from_context")
            co_return artifact_answer(console, what, make_playwright_script(buffers, arguments, what != "reproduction", page));
        if (what == "pr_summary") co_return artifact_answer(console, what, make_pr_summary(buffers, arguments, page));
        if (what == "csp") co_return artifact_answer(console, what, make_content_security_policy(buffers, arguments, page));
        if (what == "sarif") {
            // The accessibility audit runs in the page; its violations become the report.
            CommandRequest audit;
            audit.what = what;
            audit.type = "a11y";
            audit.prefix = "sarif";
            audit.origin = "generate sarif";
            audit.params = json::object{{"what", "accessibility"}};
            if (auto scope = string_argument(arguments, "scope")) audit.params["selector"] = *scope;
            auto found = co_await run_command(console, call, audit);
            auto* fields = found.structured_content ? found.structured_content->if_object() : nullptr;
            const auto* audit_result = fields ? fields->if_contains("result") : nullptr;
            if (found.is_error || !fields || json_fields::text(*fields, "status") != "complete" || !audit_result ||
                !audit_result->is_object())
                co_return found;
            co_return artifact_answer(console, what, make_sarif(audit_result->get_object()));
        }
        if (what == "sri" || what == "visual_test" || what == "annotation_report" || what == "annotation_issues" ||
            what == "test_heal" || what == "test_classify")
            co_return unsupported("generate", what,
                               "it needs data the extension does not capture (full script bodies, draw-mode "
                               "annotations, test files)");
        co_return unknown_mode("generate", what);
    }));
}

}  // namespace mcpkit::devconsole
