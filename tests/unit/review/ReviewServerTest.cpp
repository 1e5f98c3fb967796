// present_review through the MCP Client API, with the review going to a sink in memory (the
// seam seed 000 asks for) and to a real panel over the socket.

#include "review/IpcServer.hpp"
#include "review/ReviewDocument.hpp"
#include "review/ReviewServer.hpp"
#include "server/ServerClientFixture.hpp"

#include <filesystem>
#include <unistd.h>

using namespace mcpkit::review;
using namespace mcp::testing;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

class DocumentSink : public ReviewSink {
public:
    ReviewDocument document;
    asio::awaitable<PresentOutcome> present(const ReviewRequest& request, const mcp::CancellationToken&) override {
        document.apply(request);
        co_return PresentOutcome{true, "shown"};
    }
};

std::string text_of(const mcp::CallToolResult& result) {
    return result.content.empty() ? std::string() : std::string(result.content[0].json.at("text").as_string());
}

}  // namespace

TEST(ReviewServer, ListsTheToolWithGuidanceAndItsAlias) {
    ServerClientFixture f;
    DocumentSink sink;
    add_review_tools(f.server, sink, "/work");
    f.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        auto tools = co_await client.list_tools();
        CO_ASSERT_EQ(tools.size(), 2u);
        EXPECT_EQ(tools[0].name, "present_review");
        EXPECT_EQ(tools[1].name, "present-review");
        for (const char* guidance : {"## Summary", "## Findings", "## Suggestions", "path:line", "path:start-end",
                                     "path?text", "update-section", "append", "replace"})
            EXPECT_NE(tools[0].description.find(guidance), std::string::npos) << guidance;
        EXPECT_EQ(tools[0].input_schema.at("required").as_array(), json::array{"content"});
        for (const char* property : {"content", "mode", "section", "baseUri"})
            EXPECT_TRUE(tools[0].input_schema.at("properties").as_object().at(property).as_object().contains("description"));
    });
}

TEST(ReviewServer, AppliesEveryModeThroughTheSink) {
    ServerClientFixture f;
    DocumentSink sink;
    add_review_tools(f.server, sink, "/work");
    f.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        json::object first{{"content", "## Summary\nok\n\n## Findings\n- old"}};
        auto shown = co_await client.call_tool("present_review", first);
        EXPECT_FALSE(shown.is_error) << text_of(shown);
        json::object more{{"content", "## Suggestions\n- more"}, {"mode", "append"}};
        co_await client.call_tool("present-review", more);
        json::object update{{"content", "- new"}, {"mode", "update-section"}, {"section", "Findings"}};
        co_await client.call_tool("present_review", update);
        EXPECT_EQ(sink.document.current().markdown, "## Summary\nok\n\n## Findings\n\n- new\n\n## Suggestions\n- more");
        EXPECT_EQ(sink.document.current().base_uri, "file:///work");
        json::object missing_section{{"content", "x"}, {"mode", "update-section"}};
        auto refused = co_await client.call_tool("present_review", missing_section);
        EXPECT_TRUE(refused.is_error);
        EXPECT_NE(text_of(refused).find("section"), std::string::npos) << text_of(refused);
        EXPECT_EQ(sink.document.current().revision, 3u);  // the refused call changed nothing
    });
}

TEST(ReviewServer, ReachesARealPanelAndExplainsAMissingOne) {
    ServerClientFixture f;
    std::string path = (std::filesystem::temp_directory_path() / ("review-server-" + std::to_string(::getpid()) + ".sock")).string();
    ReviewDocument document;
    IpcServer panel(f.io.get_executor(), path, [&](std::string_view, const json::object& payload) {
        auto parsed = parse_review_request(payload, "/");
        if (auto* error = std::get_if<ArgumentError>(&parsed)) return IpcReply{false, error->message};
        document.apply(std::get<ReviewRequest>(parsed));
        return IpcReply{};
    });
    IpcClientOptions options;
    bool panel_running = true;
    options.locate = [&] {
        return panel_running ? SocketCandidates{{path}, ""}
                             : SocketCandidates{{}, "DIALECTIC_IPC_PATH is not set and there is no live panel"};
    };
    options.timeout = std::chrono::milliseconds(400);
    IpcClient client(f.io.get_executor(), options);
    IpcReviewSink sink(client);
    add_review_tools(f.server, sink, "/work");
    panel.start();
    f.with_client({}, [&](mcp::Client& client_api) -> asio::awaitable<void> {
        json::object review{{"content", "## Summary\nvia the socket"}};
        auto shown = co_await client_api.call_tool("present_review", review);
        EXPECT_FALSE(shown.is_error) << text_of(shown);
        EXPECT_EQ(text_of(shown), "Review successfully displayed in the review panel (mode: replace).");
        EXPECT_EQ(document.current().markdown, "## Summary\nvia the socket");
        panel.stop();
        client.close();
        panel_running = false;
        auto missing = co_await client_api.call_tool("present_review", review);
        EXPECT_TRUE(missing.is_error);
        EXPECT_NE(text_of(missing).find("No review panel"), std::string::npos) << text_of(missing);
        EXPECT_NE(text_of(missing).find("mcpkit review-panel"), std::string::npos) << text_of(missing);
        EXPECT_EQ(client.pending(), 0u);
    });
}
