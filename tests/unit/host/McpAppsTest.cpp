// MCP Apps metadata and the Content-Security-Policy a view is served with.

#include "host/coordinator/AppMetadata.hpp"
#include "host/apps/McpApps.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

namespace mcpkit::host {
namespace {

mcp::Tool tool_with_meta(std::string_view meta) {
    mcp::Tool tool;
    tool.name = "t";
    tool.meta = boost::json::parse(meta).as_object();
    return tool;
}

TEST(AppMetadata, ReadsTheResourceUriInBothFormsAndOnlyUiScheme) {
    EXPECT_EQ(app_resource_uri(tool_with_meta(R"({"ui": {"resourceUri": "ui://a/view"}})")), "ui://a/view");
    EXPECT_EQ(app_resource_uri(tool_with_meta(R"({"ui/resourceUri": "ui://old/view"})")), "ui://old/view");
    EXPECT_FALSE(app_resource_uri(tool_with_meta(R"({"ui": {"resourceUri": "https://x/view"}})")));
    EXPECT_FALSE(app_resource_uri(tool_with_meta("{}")));
}

TEST(AppMetadata, VisibilityDefaultsToBoth) {
    EXPECT_TRUE(visible_to(tool_with_meta("{}"), "model"));
    auto app_only = tool_with_meta(R"({"ui": {"visibility": ["app"]}})");
    EXPECT_FALSE(visible_to(app_only, "model"));
    EXPECT_TRUE(visible_to(app_only, "app"));
}

TEST(AppContentSecurityPolicy, RestrictiveByDefault) {
    std::string csp = app_content_security_policy({});
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos);
    EXPECT_NE(csp.find("connect-src 'none'"), std::string::npos);
    EXPECT_NE(csp.find("frame-src 'none'"), std::string::npos);
    EXPECT_NE(csp.find("object-src 'none'"), std::string::npos);
    EXPECT_NE(csp.find("sandbox allow-scripts allow-forms"), std::string::npos) << "opaque origin even when opened alone";
    EXPECT_EQ(csp.find("allow-same-origin"), std::string::npos);
}

TEST(AppContentSecurityPolicy, DeclaredOriginsAndNothingSmuggled) {
    auto declared = boost::json::parse(R"({"connectDomains": ["https://api.example.com", "wss://live.example.com:8443"],
        "resourceDomains": ["https://*.cdn.example", "https://evil.example; script-src *", "'unsafe-eval'"]})").as_object();
    std::string csp = app_content_security_policy(declared);
    EXPECT_NE(csp.find("connect-src https://api.example.com wss://live.example.com:8443"), std::string::npos) << csp;
    EXPECT_NE(csp.find("script-src 'self' 'unsafe-inline' https://*.cdn.example;"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("evil"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos) << csp;
}

}  // namespace
}  // namespace mcpkit::host
