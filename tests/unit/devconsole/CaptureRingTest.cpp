// The capture rings: budgets in count and bytes, oldest evicted first, sequence numbers that keep
// counting through evictions (what cursors rely on).

#include "devconsole/capture/CaptureBuffers.hpp"
#include "devconsole/capture/CaptureRing.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace mcpkit::devconsole {
namespace {

CapturedEntry entry(std::string text) {
    CapturedEntry captured;
    captured.json = std::move(text);
    return captured;
}

std::vector<std::uint64_t> sequences_after(const CaptureRing& ring, std::uint64_t after) {
    std::vector<std::uint64_t> seen;
    ring.visit_after(after, [&](const CapturedEntry& e) {
        seen.push_back(e.sequence);
        return true;
    });
    return seen;
}

TEST(CaptureRing, KeepsTheNewestWithinTheCountAndCountsEvictions) {
    CaptureRing ring(3, 1 << 20);
    for (int i = 0; i < 5; ++i) ring.add({entry("e" + std::to_string(i))});
    auto statistics = ring.statistics();
    EXPECT_EQ(statistics.entries, 3u);
    EXPECT_EQ(statistics.added, 5u);
    EXPECT_EQ(statistics.evicted, 2u);
    EXPECT_EQ(statistics.oldest_sequence, 3u);
    std::vector<std::string> newest_first;
    ring.visit_newest_first([&](const CapturedEntry& e) {
        newest_first.push_back(e.json);
        return true;
    });
    EXPECT_EQ(newest_first, (std::vector<std::string>{"e4", "e3", "e2"}));
}

TEST(CaptureRing, EvictsToStayWithinTheByteBudget) {
    CaptureRing ring(1000, 3 * (sizeof(CapturedEntry) + 100));
    for (int i = 0; i < 10; ++i) ring.add({entry(std::string(100, 'x'))});
    EXPECT_EQ(ring.statistics().entries, 3u);
    EXPECT_LE(ring.statistics().bytes, ring.statistics().max_bytes);
}

TEST(CaptureRing, ReadsAfterACursorEvenWhenOlderEntriesWereEvicted) {
    CaptureRing ring(4, 1 << 20);
    for (int i = 0; i < 10; ++i) ring.add({entry("e")});
    EXPECT_EQ(sequences_after(ring, 8), (std::vector<std::uint64_t>{9, 10}));
    EXPECT_EQ(sequences_after(ring, 2), (std::vector<std::uint64_t>{7, 8, 9, 10})) << "an evicted cursor resumes at the oldest";
    EXPECT_TRUE(sequences_after(ring, 10).empty());
}

TEST(CaptureRing, ResizingEvictsAtOnceAndClearingKeepsTheNumbering) {
    CaptureRing ring(10, 1 << 20);
    for (int i = 0; i < 6; ++i) ring.add({entry("e")});
    ring.resize(2, 1 << 20);
    EXPECT_EQ(ring.statistics().entries, 2u);
    ring.clear();
    ring.add({entry("after")});
    EXPECT_EQ(sequences_after(ring, 0), (std::vector<std::uint64_t>{7}));
}

TEST(CaptureBuffers, IngestionNamesWhatItRefusesAndKeepsTheRest) {
    CaptureBuffers buffers;
    auto result = buffers.ingest(
        Stream::logs,
        R"({"entries":[{"level":"warn","message":"kept","ts":"2026-11-24T15:52:05.156Z","tabId":7},)"
        R"({"level":"loud"},{"message":"no level"},17,{"level":"log","type":"weird"}]})");
    EXPECT_EQ(result.status, 200);
    EXPECT_EQ(result.accepted, 1u);
    EXPECT_EQ(result.rejected, 4u);
    auto answer = boost::json::parse(result.body).as_object();
    auto rejections = answer.at("rejections").as_array();
    ASSERT_EQ(rejections.size(), 4u);
    EXPECT_NE(std::string(rejections[0].at("reason").as_string()).find("\"level\" is \"loud\""), std::string::npos);
    EXPECT_NE(std::string(rejections[2].at("reason").as_string()).find("not a JSON object"), std::string::npos);
    CapturedEntry kept;
    buffers.ring(Stream::logs).visit_newest_first([&](const CapturedEntry& e) {
        kept = e;
        return false;
    });
    EXPECT_EQ(level_of(kept), LogLevel::warn);
    EXPECT_EQ(kept.tab_id, 7);
    EXPECT_EQ(kept.time_ms, 1795535525156);
}

TEST(CaptureBuffers, MalformedBodiesAreRefusedWhole) {
    CaptureBuffers buffers;
    EXPECT_EQ(buffers.ingest(Stream::logs, "{oops").status, 400);
    auto wrong = buffers.ingest(Stream::websocket, R"({"entries":[]})");
    EXPECT_EQ(wrong.status, 400);
    EXPECT_NE(wrong.body.find("array \\\"events\\\""), std::string::npos) << wrong.body;
    EXPECT_EQ(buffers.ring(Stream::logs).statistics().added, 0u);
}

TEST(IsoTime, ParsesOffsetsAndFractionsAndFormatsBack) {
    EXPECT_EQ(parse_iso_time("2026-11-24T15:52:05.156Z"), 1795535525156);
    EXPECT_EQ(parse_iso_time("2026-11-24T16:52:05.156+01:00"), 1795535525156);
    EXPECT_EQ(parse_iso_time("2026-11-24T15:52:05Z"), 1795535525000);
    EXPECT_FALSE(parse_iso_time("yesterday"));
    EXPECT_EQ(format_iso_time(1795535525156), "2026-11-24T15:52:05.156Z");
}

}  // namespace
}  // namespace mcpkit::devconsole
