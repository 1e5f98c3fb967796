// Which hosts bypass the proxy (NO_PROXY), and how proxy URLs are read.

#include "transport/http/HttpClientConnection.hpp"
#include "transport/http/ProxyTunnel.hpp"

#include <gtest/gtest.h>

using namespace mcp::http;

TEST(ProxyRules, NoProxyMatchesNamesDomainsPortsAndEverything) {
    struct Case {
        const char* list;
        const char* host;
        const char* port;
        bool bypass;
    };
    const Case cases[] = {
        {"example.com", "example.com", "443", true},
        {"example.com", "api.example.com", "443", true},
        {"example.com", "badexample.com", "443", false},
        {".internal", "svc.internal", "80", true},
        {"*.corp", "a.b.corp", "80", true},
        {" localhost , 127.0.0.1 ", "127.0.0.1", "3000", true},
        {"Example.COM", "EXAMPLE.com", "443", true},
        {"host.example:8443", "host.example", "8443", true},
        {"host.example:8443", "host.example", "443", false},
        {"*", "anything.at.all", "1", true},
        {"", "example.com", "443", false},
        {",,", "example.com", "443", false},
    };
    for (const auto& c : cases)
        EXPECT_EQ(no_proxy_matches(c.list, c.host, c.port), c.bypass) << c.list << " / " << c.host << ":" << c.port;
}

TEST(ProxyRules, ProxyUrlsAreReadWithTheirCredentialsAndRefusedWhenUnusable) {
    ProxyRoute plain = parse_proxy("proxy.corp:3128");
    EXPECT_EQ(plain.host, "proxy.corp");
    EXPECT_EQ(plain.port, "3128");
    EXPECT_TRUE(plain.authorization.empty());
    ProxyRoute with_user = parse_proxy("http://ada:secret@10.0.0.1:8080");
    EXPECT_EQ(with_user.host, "10.0.0.1");
    EXPECT_EQ(with_user.authorization, "Basic YWRhOnNlY3JldA==");  // ada:secret
    EXPECT_EQ(with_user.display, "http://10.0.0.1:8080");        // no password in messages
    EXPECT_EQ(parse_proxy("http://proxy").port, "80");
    EXPECT_THROW(parse_proxy("https://proxy:443"), std::invalid_argument);
    EXPECT_THROW(parse_proxy("http://"), std::invalid_argument);
}

TEST(ProxyRules, HttpsUrlsDefaultToPort443) {
    HttpUrl url = parse_http_url("https://mcp.example.com/mcp");
    EXPECT_TRUE(url.tls);
    EXPECT_EQ(url.port, "443");
    EXPECT_FALSE(parse_http_url("http://mcp.example.com/mcp").tls);
    EXPECT_THROW(parse_http_url("ftp://mcp.example.com/"), std::invalid_argument);
}
