#include "review/ReviewRequest.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

using namespace mcpkit::review;
namespace json = boost::json;

namespace {
std::string error_of(std::string_view arguments) {
    auto parsed = parse_review_request(json::parse(arguments).as_object(), "/work");
    auto* error = std::get_if<ArgumentError>(&parsed);
    return error ? error->message : "<accepted>";
}
ReviewRequest accepted(std::string_view arguments) {
    auto parsed = parse_review_request(json::parse(arguments).as_object(), "/work/my project");
    if (auto* error = std::get_if<ArgumentError>(&parsed)) ADD_FAILURE() << error->message;
    return std::get<ReviewRequest>(parsed);
}
}  // namespace

TEST(ReviewRequest, RefusesBadArgumentsNamingTheFieldAndTheFix) {
    EXPECT_EQ(error_of(R"({})"), "Missing required parameter: content (the review, as markdown)");
    EXPECT_EQ(error_of(R"({"content": 3})"), "Invalid content: expected a string of markdown, got int64");
    EXPECT_EQ(error_of(R"({"content": "  \n "})"), "Invalid content: cannot be empty; write the review as markdown");
    EXPECT_EQ(error_of(R"({"content": "x", "mode": "merge"})"),
              "Invalid mode \"merge\": must be one of replace, append, update-section");
    EXPECT_EQ(error_of(R"({"content": "x", "mode": 1.5})"), "Invalid mode 1.5: must be one of replace, append, update-section");
    EXPECT_NE(error_of(R"({"content": "x", "mode": "update-section"})").find("Missing required parameter: section"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"content": "x", "mode": "update-section", "section": " "})").find("Invalid section"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"content": "x", "baseUri": "src"})").find("absolute path or a file:// URI"), std::string::npos);
    EXPECT_NE(error_of(R"({"content": "x", "baseUri": "https://example.com/"})").find("only local file://"),
              std::string::npos);
}

TEST(ReviewRequest, RefusesABaseUriHoldingANulByte) {
    EXPECT_NE(error_of(R"({"content": "x", "baseUri": "/tmp/a\u0000/b"})").find("NUL byte"), std::string::npos);
    EXPECT_NE(error_of(R"({"content": "x", "baseUri": "file:///tmp/a%00/b"})").find("NUL byte"), std::string::npos);
    EXPECT_EQ(error_of(R"({"content": "x", "baseUri": "file:///tmp/a%20b"})"), "<accepted>");
}

TEST(ReviewRequest, DefaultsToReplaceAndTheWorkingDirectory) {
    auto request = accepted(R"({"content": "## Summary"})");
    EXPECT_EQ(request.mode, ReviewMode::replace);
    EXPECT_EQ(request.base_uri, "file:///work/my%20project");
    EXPECT_EQ(file_uri_to_path(request.base_uri), "/work/my project");
    auto section = accepted(R"({"content": "x", "mode": "update-section", "section": "## Findings ", "baseUri": "/tmp/a"})");
    EXPECT_EQ(section.section, "Findings");
    EXPECT_EQ(section.base_uri, "file:///tmp/a");
    auto payload = to_payload(section);
    EXPECT_EQ(payload.at("mode"), "update-section");
    EXPECT_EQ(payload.at("section"), "Findings");
}

TEST(ReviewRequest, FileUrisRoundTrip) {
    EXPECT_EQ(file_uri_to_path("file:///a/b%23c"), "/a/b#c");
    EXPECT_EQ(file_uri_to_path("file://localhost/x"), "/x");
    EXPECT_FALSE(file_uri_to_path("file://server/share").has_value());
    EXPECT_FALSE(file_uri_to_path("/plain/path").has_value());
    EXPECT_EQ(to_file_uri("/a b/ü"), "file:///a%20b/%C3%BC");
}
