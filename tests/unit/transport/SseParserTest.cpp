#include <mcp/transport/SseParser.hpp>

#include <gtest/gtest.h>

#include <vector>

using mcp::SseEvent;
using mcp::SseParser;

namespace {
std::vector<SseEvent> feed_all(SseParser& parser, const std::vector<std::string>& pieces) {
    std::vector<SseEvent> events;
    for (const auto& piece : pieces) parser.feed(piece, [&](SseEvent& event) { events.push_back(event); });
    return events;
}
}  // namespace

TEST(SseParser, ParsesEventsSplitAnywhereWithAnyLineEnding) {
    SseParser parser;
    auto events = feed_all(parser, {"id: s_1\r", "\nretry: 500\r\ndata: \r\n\r\nevent: mess", "age\ndata: {\"a\":1}\n",
                                    "\n: keepalive\n\ndata: x\rdata: y\r\r"});
    ASSERT_EQ(events.size(), 3u);  // the priming event has empty data, which still dispatches
    EXPECT_EQ(events[0].data, "");
    EXPECT_EQ(events[0].id, "s_1");
    EXPECT_EQ(events[1].type, "message");
    EXPECT_EQ(events[1].data, "{\"a\":1}");
    EXPECT_EQ(events[2].data, "x\ny");
    EXPECT_EQ(parser.last_event_id(), "s_1");
    ASSERT_TRUE(parser.retry().has_value());
    EXPECT_EQ(parser.retry()->count(), 500);
}

TEST(SseParser, EverySplitOfAStreamGivesTheSameEvents) {
    const std::string stream = "id: 1\r\ndata: a\r\rdata: b\r\ndata: c\n\n: note\r\nevent: x\ndata: d\r\n\r\ndata: e\n\n";
    SseParser whole_parser;
    auto whole = feed_all(whole_parser, {stream});
    ASSERT_EQ(whole.size(), 4u);
    EXPECT_EQ(whole[0].data, "a");
    EXPECT_EQ(whole[1].data, "b\nc");
    EXPECT_EQ(whole[2].type, "x");
    EXPECT_EQ(whole[3].data, "e");
    for (std::size_t first = 0; first <= stream.size(); ++first)
        for (std::size_t second = first; second <= stream.size(); ++second) {
            SseParser parser;
            auto events = feed_all(parser, {stream.substr(0, first), stream.substr(first, second - first), stream.substr(second)});
            ASSERT_EQ(events.size(), whole.size()) << "split at " << first << " and " << second;
            for (std::size_t i = 0; i < events.size(); ++i) {
                EXPECT_EQ(events[i].data, whole[i].data) << "split at " << first << " and " << second;
                EXPECT_EQ(events[i].type, whole[i].type);
                EXPECT_EQ(events[i].id, whole[i].id);
            }
        }
}

TEST(SseParser, IgnoresInvalidRetryAndKeepsIdAcrossEvents) {
    SseParser parser;
    auto events = feed_all(parser, {"retry: soon\nid: 7\nevent: endpoint\ndata: /messages?sessionId=1\n\ndata: z\n\n"});
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].type, "endpoint");
    EXPECT_EQ(events[1].type, "message");
    EXPECT_EQ(events[1].id, "7");
    EXPECT_FALSE(parser.retry().has_value());
}

#include <mcp/transport/SseWriter.hpp>

namespace {

TEST(SseWriter, WritesWhatTheParserReadsBackEvenWithLineBreaksInTheData) {
    std::string out;
    mcp::append_sse_event(out, R"({"jsonrpc":"2.0"})", "message", "s1_7", std::chrono::milliseconds(1000));
    EXPECT_EQ(out, "id: s1_7\nretry: 1000\nevent: message\ndata: {\"jsonrpc\":\"2.0\"}\n\n");
    out.clear();
    mcp::append_sse_event(out, "one\ntwo\r\nthree\rfour\n", "review");
    mcp::append_sse_comment(out);
    mcp::append_sse_event(out, "", {}, "prime");
    SseParser parser;
    auto events = feed_all(parser, {out});
    ASSERT_EQ(events.size(), 2u) << "the comment is skipped";
    EXPECT_EQ(events[0].type, "review");
    EXPECT_EQ(events[0].data, "one\ntwo\nthree\nfour\n") << "no line of the data became a field or ended the event";
    EXPECT_EQ(events[1].data, "");
    EXPECT_EQ(events[1].id, "prime");
    out.clear();
    mcp::append_sse_event(out, "x", "a\ndata: forged", "1\r\nevent: forged");
    EXPECT_EQ(out, "id: 1event: forged\nevent: adata: forged\ndata: x\n\n") << "no field can be smuggled in";
}

}  // namespace
