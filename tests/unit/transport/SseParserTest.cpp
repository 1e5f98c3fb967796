#include "transport/http/SseParser.hpp"

#include <gtest/gtest.h>

#include <vector>

using mcp::http::SseEvent;
using mcp::http::SseParser;

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

TEST(SseParser, IgnoresInvalidRetryAndKeepsIdAcrossEvents) {
    SseParser parser;
    auto events = feed_all(parser, {"retry: soon\nid: 7\nevent: endpoint\ndata: /messages?sessionId=1\n\ndata: z\n\n"});
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].type, "endpoint");
    EXPECT_EQ(events[1].type, "message");
    EXPECT_EQ(events[1].id, "7");
    EXPECT_FALSE(parser.retry().has_value());
}
