// ui/update-model-context: a view's update as text for the model, one context per view.

#include "host/chat/ViewContext.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <stdexcept>

namespace mcpkit::host {
namespace {

std::string text_of(std::string_view params) { return view_context_text(boost::json::parse(params).as_object()); }

TEST(ViewContext, TextBlocksAsTheyAreOtherBlocksNamedStructuredContentAsJson) {
    EXPECT_EQ(text_of(R"({"content": [{"type": "text", "text": "a"}, {"type": "image", "data": "…"}, {"type": "text", "text": "b"}],
                          "structuredContent": {"count": 3}})"),
              "a\n[image content]\nb\nData: {\"count\":3}");
    EXPECT_EQ(text_of(R"({"structuredContent": {"x": [1]}})"), "Data: {\"x\":[1]}");
    EXPECT_EQ(text_of(R"({"content": [], "structuredContent": {}})"), "");
    EXPECT_EQ(text_of("{}"), "");
}

TEST(ViewContext, MalformedParamsNameTheField) {
    auto message = [](std::string_view params) {
        try {
            text_of(params);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(message(R"({"content": "text"})"), "params.content must be an array of content blocks");
    EXPECT_EQ(message(R"({"content": [{"type": "text", "text": "a"}, {"text": "b"}]})"),
              "params.content[1] must be an object with a string \"type\"");
    EXPECT_EQ(message(R"({"content": [{"type": "text", "text": 7}]})"), "params.content[0].text must be a string");
    EXPECT_EQ(message(R"({"structuredContent": [1]})"), "params.structuredContent must be an object");
}

TEST(ViewContext, OverTheLimitIsRefused) {
    std::string at_limit = R"({"content": [{"type": "text", "text": ")" + std::string(max_view_context_bytes, 'x') + "\"}]}";
    EXPECT_EQ(text_of(at_limit).size(), max_view_context_bytes);
    std::string over = R"({"content": [{"type": "text", "text": ")" + std::string(max_view_context_bytes + 1, 'x') + "\"}]}";
    EXPECT_THROW(text_of(over), std::length_error);
}

TEST(ViewContext, NewestPerViewEmptyForgetsOldestViewDroppedBeyondTheLimit) {
    std::vector<ViewContext> contexts;
    keep_view_context(contexts, {"v1", "apps", "show", "first"});
    keep_view_context(contexts, {"v2", "apps", "show", "other view"});
    keep_view_context(contexts, {"v1", "apps", "show", "second"});
    ASSERT_EQ(contexts.size(), 2u);
    EXPECT_EQ(contexts[0].text, "other view");
    EXPECT_EQ(contexts[1].text, "second");
    EXPECT_EQ(view_contexts_for_model(contexts),
              "Context from the view of the tool show (server apps), as it stands now:\nother view"
              "\n\nContext from the view of the tool show (server apps), as it stands now:\nsecond");

    keep_view_context(contexts, {"v2", "apps", "show", ""});
    ASSERT_EQ(contexts.size(), 1u);
    EXPECT_EQ(contexts[0].view_id, "v1");

    for (int i = 0; i < 10; ++i) keep_view_context(contexts, {"w" + std::to_string(i), "s", "t", "c"});
    ASSERT_EQ(contexts.size(), max_view_contexts);
    EXPECT_EQ(contexts.front().view_id, "w2");
    EXPECT_EQ(contexts.back().view_id, "w9");
    EXPECT_EQ(view_contexts_for_model({}), "");
}

}  // namespace
}  // namespace mcpkit::host
