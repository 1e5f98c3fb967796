#include "review/ReviewDocument.hpp"

#include <gtest/gtest.h>

using namespace mcpkit::review;

namespace {
ReviewRequest request(std::string content, ReviewMode mode = ReviewMode::replace, std::string section = {}) {
    return ReviewRequest{std::move(content), mode, std::move(section), "file:///work"};
}
}  // namespace

TEST(ReviewDocument, ReplaceAppendAndHistory) {
    ReviewDocument document(2);
    document.apply(request("# First\nbody"));
    document.apply(request("more", ReviewMode::append));
    EXPECT_EQ(document.current().markdown, "# First\nbody\n\nmore");
    EXPECT_EQ(document.current().revision, 2u);
    document.apply(request("# Second"));
    document.apply(request("# Third"));
    document.apply(request("# Fourth"));
    ASSERT_EQ(document.history().size(), 2u);  // bounded, newest first
    EXPECT_EQ(document.history()[0].title(), "Third");
    EXPECT_EQ(document.history()[1].title(), "Second");
    EXPECT_EQ(document.current().title(), "Fourth");
}

TEST(ReviewDocument, UpdateSectionReplacesOnlyThatSectionsBody) {
    std::string review =
        "# Review\n\n## Summary\nold summary\n\n## Findings\n- old finding\n### Detail\nnested\n\n## Suggestions\nkeep\n";
    auto updated = replace_section(review, "findings", "- new finding");
    EXPECT_EQ(updated, "# Review\n\n## Summary\nold summary\n\n## Findings\n\n- new finding\n\n## Suggestions\nkeep\n");
    // The nested ### heading belonged to Findings and went with it; a ### section alone stops at the next ###.
    EXPECT_EQ(replace_section(review, "Detail", "new"), "# Review\n\n## Summary\nold summary\n\n## Findings\n- old finding\n"
                                                        "### Detail\n\nnew\n\n## Suggestions\nkeep\n");
}

TEST(ReviewDocument, UpdateSectionIgnoresHeadingsInCodeAndAppendsMissingSections) {
    std::string review = "## Code\n```\n## Findings\n```\n";
    EXPECT_EQ(replace_section(review, "Findings", "x"), "## Code\n```\n## Findings\n```\n\n## Findings\n\nx\n");
    // The body may repeat the heading: it is not doubled.
    EXPECT_EQ(replace_section("## Findings\nold\n", "Findings", "## Findings\nnew"), "## Findings\n\nnew\n");
    EXPECT_EQ(replace_section("", "Findings", "x"), "## Findings\n\nx\n");
}
