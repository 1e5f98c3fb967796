#include "review/MarkdownRenderer.hpp"

#include <gtest/gtest.h>

using namespace mcpkit::review;

TEST(MarkdownRenderer, LinksReferencesInTextCodeAndLinks) {
    auto rendered = render_review(
        "## Findings\n- leak in src/my_file.cpp:42, see `src/x.cpp?int main(` and [the parser](parse.cpp:7-9)\n"
        "- not a reference: ratio 3:1, http://example.com/a.cpp:3\n\n```\ncode.cpp:1 stays code\n```\n",
        "/base");
    const auto& html = rendered.html;
    EXPECT_NE(html.find("<a href=\"/open?path=%2Fbase%2Fsrc%2Fmy_file.cpp&amp;line=42\" title=\"/base/src/my_file.cpp:42 "
                        "(no such file: /base/src/my_file.cpp)\">src/my_file.cpp:42</a>"),
              std::string::npos)
        << html;
    EXPECT_NE(html.find("><code>src/x.cpp?int main(</code></a>"), std::string::npos) << html;
    EXPECT_NE(html.find("href=\"/open?path=%2Fbase%2Fparse.cpp&amp;line=7&amp;end=9\""), std::string::npos) << html;
    EXPECT_NE(html.find("<h2>Findings</h2>"), std::string::npos);
    EXPECT_NE(html.find("code.cpp:1 stays code"), std::string::npos);
    ASSERT_EQ(rendered.references.size(), 3u);
}

TEST(MarkdownRenderer, DropsRawHtmlAndDangerousLinks) {
    auto html = render_review("<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>", "/").html;
    EXPECT_EQ(html.find("<script>"), std::string::npos) << html;
    EXPECT_EQ(html.find("javascript:"), std::string::npos) << html;
    EXPECT_EQ(html.find("onerror"), std::string::npos) << html;
}

TEST(MarkdownRenderer, RendersGitHubFlavour) {
    auto html = render_review("| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~", "/").html;
    EXPECT_NE(html.find("<table>"), std::string::npos) << html;
    EXPECT_NE(html.find("checkbox"), std::string::npos) << html;
    EXPECT_NE(html.find("<del>old</del>"), std::string::npos) << html;
}
