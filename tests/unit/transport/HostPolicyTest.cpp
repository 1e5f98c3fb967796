#include "mcp/transport/HostPolicy.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using mcp::HostPolicy;

namespace {
std::optional<std::string_view> origin(std::string_view text) { return text; }
}  // namespace

// Each of these once created a session: the check trusted the host Boost.URL parsed out of the
// text, which for "http://127.0.0.1.evil.example" is 127.0.0.1 with path ".evil.example".
TEST(HostPolicy, HostileOriginsAreRefusedOnALoopbackServer) {
    auto policy = HostPolicy::for_server("127.0.0.1", {}, {});
    for (std::string_view hostile : {
             "http://127.0.0.1.evil.example", "http://127.0.0.1x", "http://127.0.0.1.nip.io",
             "http://127.0.0.1.evil.example:3000", "http://localhost.evil.example", "http://localhostx:3000",
             "http://evil.example", "https://evil.example", "http://127.0.0.1:3000/", "http://127.0.0.1:3000/path",
             "http://127.0.0.1?x", "http://127.0.0.1#x", "http://user@127.0.0.1", "http://evil.example@127.0.0.1",
             "http://127.0.0.1:99999", "http://127.0.0.1:0", "http://127.0.0.1:", "http://[::1", "http://[::1]x",
             "http://127.0.0.1 .evil", "http://127.0.0.1\t", "null", "", "127.0.0.1", "//127.0.0.1",
             "file://127.0.0.1", "ftp://localhost", "javascript://localhost", "http://.localhost",
             "http://localhost.", "http://127.0.0.1\r\nX-Evil: 1"}) {
        EXPECT_TRUE(policy.check("127.0.0.1:3000", origin(hostile))) << "accepted Origin: " << hostile;
    }
}

TEST(HostPolicy, LoopbackPagesOnAnyPortAreAccepted) {
    auto policy = HostPolicy::for_server("127.0.0.1", {}, {});
    for (std::string_view page : {"http://localhost:5173", "http://127.0.0.1:3000", "http://[::1]:3000",
                                  "https://localhost", "HTTP://LOCALHOST:8080", "http://127.0.0.1"}) {
        EXPECT_FALSE(policy.check("127.0.0.1:3000", origin(page))) << "refused Origin: " << page;
    }
    EXPECT_FALSE(policy.check("localhost:3000", std::nullopt));  // programs send no Origin
}

TEST(HostPolicy, HostileHostHeadersAreRefused) {
    auto policy = HostPolicy::for_server("127.0.0.1", {}, {});
    for (std::string_view hostile : {"", "evil.example", "127.0.0.1.evil.example", "127.0.0.1x:3000",
                                     "localhost.evil.example:3000", "127.0.0.1:3000/x", "user@127.0.0.1",
                                     "127.0.0.1:abc", "127.0.0.1:70000", "[::1", "localhost:3000 ", " localhost"}) {
        EXPECT_TRUE(policy.check_host(hostile)) << "accepted Host: " << hostile;
    }
    for (std::string_view good : {"127.0.0.1:3000", "localhost", "LOCALHOST:1", "[::1]:3000"})
        EXPECT_FALSE(policy.check_host(good)) << "refused Host: " << good;
}

TEST(HostPolicy, ExplicitOriginsMatchWholeOriginsOnly) {
    auto policy = HostPolicy::for_server("127.0.0.1", {}, {"https://app.example.com", "chrome-extension://abcdef"});
    EXPECT_FALSE(policy.check("localhost:3000", origin("https://app.example.com")));
    EXPECT_FALSE(policy.check("localhost:3000", origin("https://app.example.com:443")));
    EXPECT_FALSE(policy.check("localhost:3000", origin("chrome-extension://abcdef")));
    EXPECT_TRUE(policy.check("localhost:3000", origin("http://app.example.com")));
    EXPECT_TRUE(policy.check("localhost:3000", origin("https://app.example.com:8443")));
    EXPECT_TRUE(policy.check("localhost:3000", origin("https://app.example.com.evil.example")));
    EXPECT_TRUE(policy.check("localhost:3000", origin("https://app.example.com/")));
    EXPECT_TRUE(policy.check("localhost:3000", origin("chrome-extension://abcdefg")));
    EXPECT_THROW(HostPolicy::for_server("127.0.0.1", {}, {"https://app.example.com/"}), std::invalid_argument);
    EXPECT_THROW(HostPolicy::for_server("127.0.0.1", {"example.com/x"}, {}), std::invalid_argument);
}

TEST(HostPolicy, NamedHostsAndOpenBinds) {
    auto named = HostPolicy::for_server("0.0.0.0", {"mcp.example.com"}, {});
    EXPECT_FALSE(named.check("mcp.example.com:8080", origin("https://mcp.example.com")));
    EXPECT_TRUE(named.check("localhost:8080", std::nullopt));
    EXPECT_TRUE(named.check("mcp.example.com", origin("https://mcp.example.com.evil.example")));
    // Bound everywhere with no names: any Host, but a page must be the server's own origin.
    auto open = HostPolicy::for_server("0.0.0.0", {}, {});
    EXPECT_FALSE(open.check("anything.example", std::nullopt));
    EXPECT_FALSE(open.check("10.0.0.5:3000", origin("http://10.0.0.5:3000")));
    EXPECT_TRUE(open.check("10.0.0.5:3000", origin("http://evil.example")));
    EXPECT_TRUE(open.check("10.0.0.5:3000", origin("http://10.0.0.5:3001")));
}

TEST(HostPolicy, LoopbackPortPolicyAndSameOrigin) {
    auto panel = HostPolicy::loopback(4000);
    EXPECT_FALSE(panel.check_host("127.0.0.1:4000"));
    EXPECT_TRUE(panel.check_host("127.0.0.1:4001"));
    EXPECT_TRUE(panel.check_host("127.0.0.1"));
    EXPECT_TRUE(HostPolicy::same_origin("http://127.0.0.1:4000", "127.0.0.1:4000"));
    EXPECT_FALSE(HostPolicy::same_origin("http://127.0.0.1:4000/", "127.0.0.1:4000"));
    EXPECT_FALSE(HostPolicy::same_origin("http://127.0.0.1.evil:4000", "127.0.0.1:4000"));
    EXPECT_FALSE(HostPolicy::same_origin("http://localhost:4000", "127.0.0.1:4000"));
    EXPECT_TRUE(HostPolicy::same_origin("http://example.com", "example.com:80"));
}
