#include "review/ReviewServer.hpp"

#include <mcp/Cancellation.hpp>

#include <cstdio>

namespace mcpkit::review {
namespace json = boost::json;

namespace {

std::string describe_failure(const IpcOutcome& outcome, std::chrono::milliseconds timeout) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", static_cast<double>(timeout.count()) / 1000.0);
    switch (outcome.kind) {
    case IpcOutcome::Kind::answered:
        return "The review panel refused the review: " + (outcome.error.empty() ? "no reason given" : outcome.error);
    case IpcOutcome::Kind::no_panel:
        return "No review panel to show the review in: " + outcome.error +
               ". Start one with `mcpkit review-panel` (or open VS Code with the mcpkit review extension) and "
               "call present_review again.";
    case IpcOutcome::Kind::unreachable:
        return "Could not connect to the review panel at " + outcome.socket + " (" + outcome.error + ", retried for " +
               std::string(seconds) + " s). Is `mcpkit review-panel` still running? Start it, or set DIALECTIC_IPC_PATH to the "
               "socket it prints, and call present_review again.";
    case IpcOutcome::Kind::timed_out:
        return "The review panel at " + outcome.socket + " did not answer within " + std::string(seconds) +
               " s; it may be hung. Restart it and call present_review again.";
    case IpcOutcome::Kind::connection_lost:
        return "The review panel at " + outcome.socket + " went away before answering (" + outcome.error +
               "). Restart it and call present_review again; the next call reconnects.";
    case IpcOutcome::Kind::cancelled: return "The call was cancelled before the panel answered.";
    case IpcOutcome::Kind::bad_reply:
        return "The review panel at " + outcome.socket + " answered with something that is not a reply (" +
               outcome.error + "); is that socket really a review panel?";
    }
    return "The review could not be shown.";
}

}  // namespace

boost::asio::awaitable<PresentOutcome> IpcReviewSink::present(const ReviewRequest& request,
                                                              const mcp::CancellationToken& cancellation) {
    IpcOutcome outcome = co_await client_.request("present-review", to_payload(request), &cancellation);
    if (log_) {
        static constexpr const char* kinds[] = {"answered", "no panel", "unreachable", "timed out",
                                                "connection lost", "cancelled", "bad reply"};
        log_("present_review: " + std::string(kinds[static_cast<int>(outcome.kind)]) +
             (outcome.kind == IpcOutcome::Kind::answered ? (outcome.success ? " (shown)" : " (refused)") : "") + "; " +
             std::to_string(client_.pending()) + " requests pending");
    }
    if (outcome.kind == IpcOutcome::Kind::answered && outcome.success)
        co_return PresentOutcome{true, "Review successfully displayed in the review panel (mode: " +
                                           std::string(to_string(request.mode)) + ")."};
    co_return PresentOutcome{false, describe_failure(outcome, client_.timeout())};
}

std::string present_review_description() {
    return R"(Display a code review in the review panel beside the user's editor, rendered as markdown. Every file reference in it becomes a link that opens the editor at that place.

Use it to present the results of reviewing code, a change or a design, instead of pasting a long review into the chat. The panel updates at once; the user reads the review there and clicks through to the code.

Structure the review as markdown:
1. ## Summary: what was reviewed and the overall verdict, in two or three sentences.
2. ## Findings: one bullet or ### heading per issue, most important first; say what is wrong, why it matters, and where.
3. ## Suggestions: concrete changes, with code blocks where they help.

Reference code so the user can click through:
- path:line, e.g. src/server.cpp:42
- path:start-end for a range, e.g. src/server.cpp:42-60
- path?text for the first line containing text, e.g. src/server.cpp?handle_request (survives edits; put text with spaces in backticks: `src/server.cpp?void handle_request(`)
Paths are relative to baseUri (default: the server's working directory), or absolute.

Modes:
- replace (default): show a new review. {"content": "## Summary\n...", "mode": "replace"}
- append: add to the end of the current review, e.g. findings for one more file. {"content": "### Also in src/util.cpp:10\n...", "mode": "append"}
- update-section: replace the body under one heading (or add that section if missing), e.g. after the user fixed something. {"content": "- [x] Fixed: src/server.cpp:42 no longer leaks", "mode": "update-section", "section": "Findings"})";
}

void add_review_tools(mcp::Server& server, ReviewSink& sink, std::string default_base) {
    json::object properties{
        {"content",
         {{"type", "string"},
          {"description",
           "The review as markdown: ## Summary, ## Findings, ## Suggestions, with references such as "
           "src/main.cpp:42, src/main.cpp:42-60 or src/main.cpp?parse_args"}}},
        {"mode",
         {{"type", "string"},
          {"enum", json::array{"replace", "append", "update-section"}},
          {"default", "replace"},
          {"description",
           "replace: show a new review; append: add to the current one; update-section: replace the body under "
           "the heading named by section"}}},
        {"section",
         {{"type", "string"},
          {"description", "For update-section: the heading text whose body to replace, e.g. \"Findings\""}}},
        {"baseUri",
         {{"type", "string"},
          {"description",
           "Absolute path or file:// URI of the directory relative references are under, e.g. "
           "file:///home/me/project (default: the server's working directory)"}}},
    };
    auto handler = [&sink, default_base](mcp::ToolCall& call) -> boost::asio::awaitable<mcp::CallToolResult> {
        auto parsed = parse_review_request(call.arguments, default_base);
        if (auto* error = std::get_if<ArgumentError>(&parsed)) co_return mcp::CallToolResult::error(error->message);
        PresentOutcome outcome = co_await sink.present(std::get<ReviewRequest>(parsed), call.cancellation());
        co_return outcome.shown ? mcp::CallToolResult::text(outcome.message) : mcp::CallToolResult::error(outcome.message);
    };
    mcp::Tool tool{.name = "present_review",
                   .description = present_review_description(),
                   .input_schema = mcp::schema_object(properties, {"content"})};
    tool.title = "Present a code review";
    tool.annotations = json::object{{"readOnlyHint", false}, {"destructiveHint", false}, {"openWorldHint", false}};
    server.add_tool(tool, handler);
    tool.name = "present-review";
    tool.title = "Present a code review (alias of present_review)";
    server.add_tool(tool, handler);
}

}  // namespace mcpkit::review
