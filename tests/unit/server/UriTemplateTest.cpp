#include "server/UriTemplate.hpp"

#include <gtest/gtest.h>

using mcp::detail::UriTemplate;

TEST(UriTemplate, MatchesSimpleAndReservedVariables) {
    UriTemplate simple("test://template/{id}/data");
    auto match = simple.match("test://template/123/data");
    ASSERT_TRUE(match);
    EXPECT_EQ(match->at("id"), "123");
    EXPECT_FALSE(simple.match("test://template/1/2/data"));
    EXPECT_FALSE(simple.match("test://template//data"));
    EXPECT_FALSE(simple.match("test://template/123/data/extra"));

    UriTemplate reserved("file:///{+path}");
    auto path = reserved.match("file:///home/ada/notes%20today.txt");
    ASSERT_TRUE(path);
    EXPECT_EQ(path->at("path"), "home/ada/notes today.txt");
}

TEST(UriTemplate, RejectsMalformedTemplates) {
    EXPECT_THROW(UriTemplate("test://{open"), std::invalid_argument);
    EXPECT_THROW(UriTemplate("test://{}"), std::invalid_argument);
    EXPECT_THROW(UriTemplate("test://{a}{b}"), std::invalid_argument);
}
