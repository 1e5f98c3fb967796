// What LLM streams send, piece by piece: server-sent events cut anywhere, and OpenAI-style tool
// call deltas in the shapes each backend uses (shared/reference/llm-and-hosts.md §2).

#include "host/llm/ModelErrors.hpp"
#include "host/llm/ScratchJson.hpp"
#include "host/llm/ToolCallAccumulator.hpp"

#include <mcp/transport/SseParser.hpp>

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

namespace mcpkit::host {
namespace {

std::vector<std::string> events_of(const std::vector<std::string>& pieces) {
    mcp::SseParser reader;
    std::vector<std::string> events;
    auto collect = [&](mcp::SseEvent& event) { events.push_back(event.data); };
    for (const auto& piece : pieces) reader.feed(piece, collect);
    reader.finish(collect);
    return events;
}

TEST(LlmEventStreams, JoinsEventsCutAnywhereAndSkipsCommentsAndTakesAnUnterminatedLastOne) {
    EXPECT_EQ(events_of({"data: {\"a\"", ":1}\n", "\ndata: two\n\n"}), (std::vector<std::string>{"{\"a\":1}", "two"}));
    EXPECT_EQ(events_of({": keep-alive\n\ndata: x\r\n\r", "\ndata: y\r\n\r\n"}), (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(events_of({"event: message\ndata: line one\ndata: line two\n\n"}),
              (std::vector<std::string>{"line one\nline two"}));
    EXPECT_EQ(events_of({"data: unterminated"}), (std::vector<std::string>{"unterminated"}));
}

TEST(ScratchJson, EachEventParsedWholeIntoMemoryTheNextReusesAndBadOnesRefused) {
    ScratchJson scratch;
    std::string big = R"({"choices":[{"delta":{"content":")" + std::string(20000, 'x') + R"("}}]})";  // past the buffer
    const auto* first = scratch.parse(big);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->at("choices").at(0).at("delta").at("content").as_string().size(), 20000u);
    // A copy made by assignment into one's own object outlives the next parse.
    boost::json::object kept;
    kept = first->at("choices").at(0).at("delta").as_object();
    const auto* second = scratch.parse(R"({"usage":{"prompt_tokens":3}})");
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->at("usage").at("prompt_tokens"), 3);
    EXPECT_FALSE(second->as_object().contains("choices"));
    EXPECT_EQ(kept.at("content").as_string().size(), 20000u);
    EXPECT_EQ(scratch.parse(R"({"cut": )"), nullptr);
    EXPECT_EQ(scratch.parse("not json"), nullptr);
    const auto* after = scratch.parse(R"(["fine"])");
    ASSERT_NE(after, nullptr) << "a refused event leaves the parser ready for the next";
    EXPECT_EQ(after->at(0), "fine");
}

TEST(ScratchJson, ALongRunOfEventsPastTheBufferKeepsParsing) {
    // Each event needs memory beyond the first buffer; the memory must start over each time rather
    // than ask for twice the last block (which failed with bad_alloc after a few dozen events).
    ScratchJson scratch;
    std::string event = R"({"choices":[{"delta":{"content":")" + std::string(60000, 'x') + R"("}}]})";
    for (int i = 0; i < 200; ++i) {
        const auto* parsed = scratch.parse(event);
        ASSERT_NE(parsed, nullptr) << "event " << i;
        ASSERT_EQ(parsed->at("choices").at(0).at("delta").at("content").as_string().size(), 60000u) << "event " << i;
    }
}

TEST(LlmEventStreams, AnEventPastTheLimitIsRefused) {
    mcp::SseParser reader(16);
    EXPECT_THROW(reader.feed("data: 0123456789012345678901234567890", [](mcp::SseEvent&) {}), std::length_error);
    mcp::SseParser lines(16);
    EXPECT_THROW(lines.feed("data: 01234\ndata: 0123456789012\n", [](mcp::SseEvent&) {}), std::length_error)
        << "the lines of one event count together";
}

std::vector<ToolCall> accumulate(std::initializer_list<std::string_view> deltas) {
    ToolCallAccumulator accumulator;
    for (auto delta : deltas) accumulator.add(boost::json::parse(delta).as_object());
    return accumulator.finish();
}

TEST(ToolCallAccumulator, ConcatenatesFragmentsUnderTheirIndex) {
    auto calls = accumulate({R"({"index":0,"id":"call_1","type":"function","function":{"name":"w__get","arguments":""}})",
                             R"({"index":1,"id":"call_2","function":{"name":"w__put","arguments":"{}"}})",
                             R"({"index":0,"function":{"arguments":"{\"ci"}})",
                             R"({"index":0,"function":{"arguments":"ty\":\"Paris\"}"}})"});
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0].id, "call_1");
    EXPECT_EQ(calls[0].name, "w__get");
    EXPECT_EQ(calls[0].arguments.at("city"), "Paris");
    EXPECT_EQ(calls[1].name, "w__put");
}

TEST(ToolCallAccumulator, SplitsParallelCallsThatAllSayIndexZero) {
    auto calls = accumulate({R"({"index":0,"id":"call_a","function":{"name":"fs__write","arguments":"{\"path\":\"a\"}"}})",
                             R"({"index":0,"id":"call_b","function":{"name":"fs__write","arguments":"{\"path\":\"b\"}"}})"});
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0].arguments.at("path"), "a");
    EXPECT_EQ(calls[1].arguments.at("path"), "b");
}

TEST(ToolCallAccumulator, ToleratesNoIndexAndNoId) {
    auto calls = accumulate({R"({"function":{"name":"a__x","arguments":"{\"n\":"}})", R"({"function":{"arguments":"1}"}})",
                             R"({"function":{"name":"a__y","arguments":"{}"}})"});
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0].arguments.at("n"), 1);
    EXPECT_TRUE(calls[0].id.starts_with("call_")) << calls[0].id;
    EXPECT_NE(calls[0].id, calls[1].id) << "made-up ids are unique";
    EXPECT_NE(accumulate({R"({"function":{"name":"a__x","arguments":"{}"}})"})[0].id,
              accumulate({R"({"function":{"name":"a__x","arguments":"{}"}})"})[0].id)
        << "and unique across turns";
}

TEST(ToolCallAccumulator, ArgumentsThatAreNotAnObjectBecomeAnErrorForTheModel) {
    auto calls = accumulate({R"({"index":0,"id":"c","function":{"name":"a__x","arguments":"{\"broken"}})",
                             R"({"index":1,"id":"d","function":{"name":"a__y","arguments":"[1]"}})",
                             R"({"index":2,"id":"e","function":{"name":"a__z","arguments":{"already":"an object"}}})"});
    EXPECT_NE(calls[0].arguments_error.find("not valid JSON"), std::string::npos);
    EXPECT_NE(calls[1].arguments_error.find("must be a JSON object"), std::string::npos);
    EXPECT_EQ(calls[2].arguments.at("already"), "an object");
    EXPECT_TRUE(calls[2].arguments_error.empty());
}

TEST(ToolCallAccumulator, MoreCallsThanAnyAnswerHoldsAreRefused) {
    ToolCallAccumulator accumulator;
    auto delta = [](std::size_t index) {
        return boost::json::parse(R"({"index":)" + std::to_string(index) + R"(,"id":"c)" + std::to_string(index) +
                                  R"(","function":{"name":"a__x","arguments":"{}"}})")
            .as_object();
    };
    for (std::size_t i = 0; i < max_tool_calls_per_answer; ++i) accumulator.add(delta(i));
    accumulator.add(delta(7));  // more of a call already started is fine
    EXPECT_THROW(accumulator.add(delta(max_tool_calls_per_answer)), ModelError);
    EXPECT_EQ(accumulator.finish().size(), max_tool_calls_per_answer);
}

}  // namespace
}  // namespace mcpkit::host
