// The host's own tools: a long result's preview and the parts read back are cut between
// characters, never inside one; a search ranks names over descriptions; the offer with too many
// tools holds search_tools and what is wanted, within 64.

#include "host/chat/HostTools.hpp"

#include <mcp/protocol/Tool.hpp>

#include <gtest/gtest.h>

using namespace mcpkit::host;

namespace {

bool valid_utf8_edges(const std::string& text) {
    // Neither end falls inside a character: no leading continuation byte, no lead byte cut short.
    if (text.empty()) return true;
    if ((static_cast<unsigned char>(text.front()) & 0xC0) == 0x80) return false;
    std::size_t last = text.size();
    while (last > 0 && (static_cast<unsigned char>(text[last - 1]) & 0xC0) == 0x80) --last;
    if (last == 0) return false;
    unsigned char lead = static_cast<unsigned char>(text[last - 1]);
    std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    return text.size() - (last - 1) == length;
}

ChatMessage tool_message(std::string id, std::string text) {
    ChatMessage message;
    message.role = Role::tool;
    message.tool_call_id = std::move(id);
    message.data = mcp::CallToolResult::text(std::move(text)).to_json();
    return message;
}

}  // namespace

TEST(HostTools, ALongResultIsPreviewedHeadAndTailCutBetweenCharacters) {
    std::string whole;
    while (whole.size() < 100000) whole += "é€😀";  // 2, 3 and 4 bytes
    bool cut = false;
    std::string preview = text_for_model(whole, "call_1", cut);
    EXPECT_TRUE(cut);
    EXPECT_LT(preview.size(), 20000u);
    auto note = preview.find("\n\n[The result is ");
    ASSERT_NE(note, std::string::npos);
    EXPECT_TRUE(valid_utf8_edges(preview.substr(0, note)));
    EXPECT_TRUE(valid_utf8_edges(preview.substr(preview.find("]\n\n") + 3)));
    EXPECT_NE(preview.find("\"id\": \"call_1\""), std::string::npos);

    std::string small(long_result_bytes, 'x');
    EXPECT_EQ(text_for_model(small, "call_2", cut), small);
    EXPECT_FALSE(cut);
}

TEST(HostTools, APartReadBackStartsAndEndsBetweenCharacters) {
    std::string whole;
    while (whole.size() < 100000) whole += "é€😀";
    std::vector<ChatMessage> history{tool_message("call_1", whole)};
    for (int offset : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 50001}) {
        boost::json::object arguments{{"id", "call_1"}, {"offset", offset}, {"length", 7}};
        HostToolAnswer answer = read_tool_result(history, arguments);
        ASSERT_FALSE(answer.is_error) << answer.text;
        auto start = answer.text.find(":\n") + 2;
        auto end = answer.text.find("\n[");
        EXPECT_TRUE(valid_utf8_edges(answer.text.substr(start, end - start))) << "offset " << offset;
    }
    boost::json::object past{{"id", "call_1"}, {"offset", 10000000}};
    EXPECT_TRUE(read_tool_result(history, past).is_error);
    boost::json::object fraction{{"id", "call_1"}, {"offset", 1.5}};
    EXPECT_TRUE(read_tool_result(history, fraction).is_error);
    boost::json::object huge{{"id", "call_1"}, {"length", 100000}};
    EXPECT_TRUE(read_tool_result(history, huge).is_error);
}

TEST(HostTools, SearchRanksNamesAboveDescriptionsAndOfferStaysWithin64) {
    std::vector<ToolDeclaration> tools;
    for (int i = 0; i < 300; ++i) tools.push_back({"chores__task_" + std::to_string(i), "A chore about the weather station", {}});
    tools.push_back({"meteo__weather", "Forecasts", {}});
    HostToolAnswer found = search_tools(tools, {{"query", "Weather"}});
    ASSERT_FALSE(found.found.empty());
    EXPECT_EQ(found.found.front(), "meteo__weather");
    EXPECT_LE(found.found.size(), 8u);

    std::vector<std::string> wanted;
    for (int i = 0; i < 100; ++i) wanted.push_back("chores__task_" + std::to_string(i));
    auto offered = offered_tools(tools, true, wanted, true);
    EXPECT_EQ(offered.size(), max_offered_tools);
    EXPECT_EQ(offered.front().name, "search_tools");
    EXPECT_EQ(offered.back().name, "read_tool_result");
    EXPECT_EQ(offered[1].name, "chores__task_0");
}
