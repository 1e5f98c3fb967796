// Edits and answers asked again keep what they replace: each version comes back whole, in its
// place, and the versions survive the store's JSON.

#include "host/chat/MessageVersions.hpp"

#include <gtest/gtest.h>

using namespace mcpkit::host;

namespace {

ChatMessage message(std::string id, Role role, std::string text) {
    ChatMessage m;
    m.id = std::move(id);
    m.role = role;
    m.content = std::move(text);
    return m;
}

std::vector<std::string> texts(const std::vector<ChatMessage>& history) {
    std::vector<std::string> out;
    for (const auto& m : history) out.push_back(m.content);
    return out;
}

}  // namespace

TEST(MessageVersions, AnEditKeepsTheStretchItReplacesAndEachVersionComesBack) {
    std::vector<ChatMessage> history{message("u1", Role::user, "hello"), message("a1", Role::assistant, "hi"),
                                     message("u2", Role::user, "first"), message("a2", Role::assistant, "one")};
    ASSERT_EQ(edit_point(history, "u2"), 2u);
    EXPECT_EQ(edit_point(history, "a2"), no_stretch);  // not a user's message
    StretchVersions versions = cut_stretch(history, 2);
    EXPECT_EQ(texts(history), (std::vector<std::string>{"hello", "hi"}));
    ChatMessage edited = message("u3", Role::user, "second");
    carry_versions(edited, std::move(versions));
    history.push_back(edited);
    history.push_back(message("a3", Role::assistant, "two"));
    EXPECT_EQ(history[2].version, 1u);

    // Through the store's JSON and back.
    history[2] = ChatMessage::from_json(history[2].to_json());
    ASSERT_EQ(show_version(history, "u3", 0), 2u);
    EXPECT_EQ(texts(history), (std::vector<std::string>{"hello", "hi", "first", "one"}));
    EXPECT_EQ(history[2].version, 0u);
    ASSERT_EQ(show_version(history, "u2", 1), 2u);
    EXPECT_EQ(texts(history), (std::vector<std::string>{"hello", "hi", "second", "two"}));
    EXPECT_EQ(show_version(history, "u3", 2), no_stretch);  // only two
}

TEST(MessageVersions, AnswerAskedAgainStartsAfterTheUsersMessageAndKeepsItsPlace) {
    std::vector<ChatMessage> history{message("u1", Role::user, "q"), message("a1", Role::assistant, "calls"),
                                     message("t1", Role::tool, "result"), message("a2", Role::assistant, "answer")};
    ASSERT_EQ(regenerate_point(history, "a2"), 1u);  // from the first message after the question
    StretchVersions first_cut = cut_stretch(history, 1);
    ChatMessage again = message("a3", Role::assistant, "again");
    carry_versions(again, std::move(first_cut));
    history.push_back(again);
    // Back to the first answer, then asked again from there: three versions, in order.
    show_version(history, "a3", 0);
    StretchVersions second_cut = cut_stretch(history, 1);
    EXPECT_EQ(second_cut.cut, 0u);
    EXPECT_EQ(second_cut.others.size(), 2u);
    EXPECT_EQ(second_cut.version, 2u);
    EXPECT_EQ(second_cut.others[0][0].content, "calls");
    EXPECT_EQ(second_cut.others[1][0].content, "again");
}
