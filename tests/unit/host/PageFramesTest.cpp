// The frames of docs/host-websocket.md as web/PageFrames writes them: JSON text written straight
// (escapes, numbers, flags, nested values), optional members left out, questions kept for pages
// that arrive later.

#include "host/chat/ChatSession.hpp"
#include "host/web/PageFrames.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

namespace mcpkit::host {
namespace {

namespace json = boost::json;

/// A page: keeps what it was sent.
struct RecordingPage : SessionClient {
    std::vector<json::object> frames;
    int flushes = 0;
    void send(std::shared_ptr<const std::string> frame) override { frames.push_back(json::parse(*frame).as_object()); }
    void send_queued() override { ++flushes; }
};

class PageFramesTest : public testing::Test {
protected:
    boost::asio::io_context io;
    ChatSession session{io.get_executor(), "session_1"};
    std::shared_ptr<RecordingPage> page = std::make_shared<RecordingPage>();
    std::shared_ptr<RecordingPage> other_tab = std::make_shared<RecordingPage>();
    PageFrames frames;
    void SetUp() override {
        session.attach(page);
        session.attach(other_tab);
    }
};

TEST_F(PageFramesTest, AToolCardEndsWithEscapedTextNumbersFlagsAndTheResult) {
    json::object result{{"content", json::array{json::object{{"type", "text"}, {"text", "say \"hi\"\n\x01"}}}},
                        {"structuredContent", {{"n", 1.5}, {"list", json::array{1, "two"}}}}};
    json::value no_app = nullptr;
    frames.tool_finished(session, ToolCard{"call_1", "files__read", "files", "turn_1"},
                         ToolEnding{result, true, std::chrono::milliseconds(42), "The call failed", no_app});
    ASSERT_EQ(page->frames.size(), 1u);
    EXPECT_EQ(other_tab->frames, page->frames) << "every tab gets the same frame";
    const json::object& frame = page->frames[0];
    EXPECT_EQ(frame.at("type"), "status");
    const json::object& payload = frame.at("payload").as_object();
    EXPECT_EQ(payload.at("state"), "complete");
    EXPECT_EQ(payload.at("callId"), "call_1");
    EXPECT_EQ(payload.at("turnId"), "turn_1");
    EXPECT_EQ(payload.at("data"), result) << "escapes and nested values survive";
    EXPECT_EQ(payload.at("isError"), true);
    EXPECT_EQ(payload.at("durationMs"), 42);
    EXPECT_FALSE(payload.contains("app")) << "no view: no member";

    frames.tool_finished(session, ToolCard{"call_2", "ui__show", "ui", ""},
                         ToolEnding{result, false, std::chrono::milliseconds(1), "Called by the app's view",
                                    json::value(json::object{{"url", "/apps/x"}})});
    const json::object& view_card = page->frames[1].at("payload").as_object();
    EXPECT_FALSE(view_card.contains("turnId")) << "a view's call belongs to no turn";
    EXPECT_EQ(view_card.at("app").at("url"), "/apps/x");
}

TEST_F(PageFramesTest, ProgressCarriesOnlyWhatTheServerSaid) {
    frames.tool_progress(session, "call_1", 0.5, std::nullopt, "");
    frames.tool_progress(session, "call_1", 3, 10.0, "reading");
    const json::object& first = page->frames[0].at("payload").as_object();
    EXPECT_EQ(first.at("progress").to_number<double>(), 0.5);
    EXPECT_FALSE(first.contains("total"));
    EXPECT_FALSE(first.contains("message"));
    const json::object& second = page->frames[1].at("payload").as_object();
    EXPECT_EQ(second.at("total").to_number<double>(), 10.0);
    EXPECT_EQ(second.at("message"), "reading");
}

TEST_F(PageFramesTest, QuestionsNameWhatChangedAndCloseWithAReason) {
    ApprovalQuestion approval{"call_9", "files__write", "files", {{"path", "/tmp/x"}}, "Writes a file",
                              {"description", "input schema"}, "Wrote a file"};
    frames.question_opened(session, approval);
    const json::object& asked = page->frames[0].at("payload").as_object();
    EXPECT_EQ(page->frames[0].at("type"), "approval_request");
    EXPECT_EQ(asked.at("arguments").at("path"), "/tmp/x");
    EXPECT_EQ(asked.at("changed"), (json::array{"description", "input schema"}));
    EXPECT_EQ(asked.at("previousDescription"), "Wrote a file");

    SamplingQuestion sampling{"sampling_1", "everything", {{"messages", json::array{}}, {"maxTokens", 100}, {"other", 1}}};
    EXPECT_EQ(json::parse(*PageFrames::question(sampling)).at("payload"),
              (json::object{{"requestId", "sampling_1"}, {"server", "everything"}, {"messages", json::array{}},
                            {"maxTokens", 100}}))
        << "only the members the page shows";

    frames.question_closed(session, "call_9", "expired");
    EXPECT_EQ(page->frames.back().at("payload"), (json::object{{"id", "call_9"}, {"reason", "expired"}}));
}

TEST_F(PageFramesTest, TurnsTextAndFlushGoToEveryTab) {
    frames.turn(session, TurnState::started, "turn_1", {});
    frames.text(session, "turn_1", "msg_1", "Hel");
    frames.flush(session);
    frames.turn(session, TurnState::failed, "turn_1", {"The model is down.", "openai answered 503", ""});
    EXPECT_EQ(page->frames[0].at("payload"), (json::object{{"state", "started"}, {"turnId", "turn_1"}}));
    EXPECT_EQ(page->frames[1].at("payload"), (json::object{{"content", "Hel"}, {"turnId", "turn_1"}, {"messageId", "msg_1"}}));
    EXPECT_EQ(page->frames[2].at("payload"), (json::object{{"state", "failed"},
                                                           {"turnId", "turn_1"},
                                                           {"message", "The model is down."},
                                                           {"details", "openai answered 503"}}))
        << "the failure in plain words once, its details apart";
    EXPECT_EQ(page->flushes, 1);
    EXPECT_EQ(other_tab->flushes, 1);
}

TEST(PageFrames, FramesForOnePageAreExactJson) {
    EXPECT_EQ(*PageFrames::history({}), R"({"type":"history","payload":{"messages":[]}})");
    EXPECT_EQ(*PageFrames::error("no such \"x\""), R"({"type":"error","payload":{"message":"no such \"x\""}})");
    EXPECT_EQ(json::parse(*PageFrames::error("bad", "req_1")).at("payload").at("requestId"), "req_1");
    EXPECT_EQ(json::parse(*PageFrames::app_response("req_2", json::value(nullptr), {{"code", -32602}, {"message", "m"}}))
                  .at("payload"),
              (json::object{{"requestId", "req_2"}, {"error", {{"code", -32602}, {"message", "m"}}}}))
        << "an error replaces the result";
    EXPECT_EQ(json::parse(*PageFrames::servers({}, nullptr, "set a key")).at("payload"),
              (json::object{{"servers", json::array{}}, {"llm", nullptr}, {"llmHelp", "set a key"}}));
}

}  // namespace
}  // namespace mcpkit::host
