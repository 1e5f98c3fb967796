// The pure rules of the OAuth client: challenges, PKCE, scopes, which metadata URLs are tried in
// which order, and which protected resource metadata may stand for a server.

#include "auth/AuthorizationDiscovery.hpp"
#include "auth/OAuthEncoding.hpp"
#include "auth/Scopes.hpp"
#include "auth/WwwAuthenticate.hpp"
#include "mcp/auth/OAuthClient.hpp"

#include <gtest/gtest.h>

using namespace mcp::auth;

TEST(WwwAuthenticate, BearerParametersQuotedOrNotWithEscapesAndOtherSchemes) {
    auto challenges = parse_www_authenticate(
        R"(Basic realm="simple", Bearer error="insufficient_scope", scope="mcp:read mcp:write",)"
        R"( resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", )"
        R"(error_description="say \"please\"", Negotiate abc123==)");
    ASSERT_EQ(challenges.size(), 3u);
    EXPECT_EQ(challenges[0].scheme, "Basic");
    EXPECT_EQ(challenges[0].parameter("realm"), "simple");
    EXPECT_EQ(challenges[1].scheme, "Bearer");
    EXPECT_EQ(challenges[1].parameter("error"), "insufficient_scope");
    EXPECT_EQ(challenges[1].parameter("scope"), "mcp:read mcp:write");
    EXPECT_EQ(challenges[1].parameter("resource_metadata"),
              "https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
    EXPECT_EQ(challenges[1].parameter("error_description"), R"(say "please")");
    EXPECT_EQ(challenges[2].scheme, "Negotiate");
    EXPECT_EQ(challenges[2].parameter(""), "abc123==");

    auto bearer = bearer_challenge(R"(bearer Scope=mcp:basic,resource_metadata="http://h/x")");
    ASSERT_TRUE(bearer);
    EXPECT_EQ(bearer->parameter("scope"), "mcp:basic");  // names are case-insensitive
    EXPECT_EQ(bearer->parameter("resource_metadata"), "http://h/x");
    EXPECT_FALSE(bearer_challenge(R"(Basic realm="x")"));
    EXPECT_FALSE(bearer_challenge(""));
    EXPECT_TRUE(bearer_challenge("Bearer"));
}

TEST(OAuthEncoding, PkceS256MatchesRfc7636AppendixB) {
    EXPECT_EQ(pkce_s256_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
              "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    std::string verifier = random_token(32);
    EXPECT_EQ(verifier.size(), 43u);  // the least RFC 7636 allows
    EXPECT_EQ(verifier.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
              std::string::npos);
    EXPECT_NE(random_token(32), verifier);
}

TEST(OAuthEncoding, FormBodiesEscapeEverythingButUnreserved) {
    EXPECT_EQ(form_encode({{"grant_type", "authorization_code"}, {"redirect_uri", "http://127.0.0.1:9/cb?a=b&c"},
                           {"scope", "mcp:read mcp:write"}}),
              "grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb%3Fa%3Db%26c&"
              "scope=mcp%3Aread+mcp%3Awrite");
}

TEST(Scopes, UnionKeepsWhatIsHeldAndAddsTheRestOnce) {
    EXPECT_EQ(union_of_scopes("mcp:basic", "mcp:write"), "mcp:basic mcp:write");
    EXPECT_EQ(union_of_scopes("a  b", "b c a"), "a b c");
    EXPECT_EQ(union_of_scopes("", ""), "");
    EXPECT_TRUE(scopes_cover("a b c", "c a"));
    EXPECT_FALSE(scopes_cover("a b", "a d"));
    EXPECT_TRUE(scopes_cover("", ""));
    EXPECT_TRUE(scopes_cover("mcp:tools", "mcp:tools offline_access"));  // asks for a refresh token, not access
}

TEST(AuthorizationDiscovery, ProtectedResourceMetadataUrlsInTheSpecsOrder) {
    EXPECT_EQ(protected_resource_metadata_urls("https://mcp.example.com/public/mcp", ""),
              (std::vector<std::string>{"https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
                                        "https://mcp.example.com/.well-known/oauth-protected-resource"}));
    EXPECT_EQ(protected_resource_metadata_urls("http://localhost:8080/", ""),
              (std::vector<std::string>{"http://localhost:8080/.well-known/oauth-protected-resource"}));
    // The 401's resource_metadata is the only one tried.
    EXPECT_EQ(protected_resource_metadata_urls("https://a.example/mcp", "https://a.example/custom/prm.json"),
              (std::vector<std::string>{"https://a.example/custom/prm.json"}));
    EXPECT_THROW(protected_resource_metadata_urls("https://a.example/mcp", "file:///etc/passwd"), AuthorizationError);
}

TEST(AuthorizationDiscovery, AuthorizationServerMetadataUrlsInsertTheIssuersPath) {
    EXPECT_EQ(authorization_server_metadata_urls("https://auth.example.com"),
              (std::vector<std::string>{"https://auth.example.com/.well-known/oauth-authorization-server",
                                        "https://auth.example.com/.well-known/openid-configuration"}));
    EXPECT_EQ(authorization_server_metadata_urls("https://auth.example.com/tenant1"),
              (std::vector<std::string>{"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                                        "https://auth.example.com/.well-known/openid-configuration/tenant1",
                                        "https://auth.example.com/tenant1/.well-known/openid-configuration"}));
}

TEST(AuthorizationDiscovery, ResourceMustBeTheServerOrAParentOnASegmentBoundary) {
    EXPECT_TRUE(resource_matches("https://mcp.example.com/mcp", "https://mcp.example.com/mcp"));
    EXPECT_TRUE(resource_matches("https://mcp.example.com", "https://mcp.example.com/mcp"));
    EXPECT_TRUE(resource_matches("https://MCP.example.com:443/", "https://mcp.example.com/mcp"));
    EXPECT_TRUE(resource_matches("http://localhost:3000/mcp/", "http://localhost:3000/mcp"));
    EXPECT_FALSE(resource_matches("https://evil.example.com/mcp", "https://mcp.example.com/mcp"));
    EXPECT_FALSE(resource_matches("https://mcp.example.com/mc", "https://mcp.example.com/mcp"));
    EXPECT_FALSE(resource_matches("https://mcp.example.com/other", "https://mcp.example.com/mcp"));
    EXPECT_FALSE(resource_matches("http://mcp.example.com/mcp", "https://mcp.example.com/mcp"));
    EXPECT_FALSE(resource_matches("https://mcp.example.com:8443/mcp", "https://mcp.example.com/mcp"));
    EXPECT_FALSE(resource_matches("not a url", "https://mcp.example.com/mcp"));
}
