// Random ids: the length and alphabet asked for, the UUID layout (version 4, RFC 4122 variant), and
// no repeats, also across the refills of the per-thread pool of kernel bytes.

#include "mcp/RandomId.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>

TEST(RandomId, HexHasTwoLowercaseDigitsPerByteAndNeverRepeats) {
    std::set<std::string> seen;
    for (int i = 0; i < 2000; ++i) {  // 32 KB: the 512-byte pool refills many times
        std::string id = mcp::random_hex(16);
        ASSERT_EQ(id.size(), 32u);
        ASSERT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
        ASSERT_TRUE(seen.insert(id).second) << "repeated: " << id;
    }
    EXPECT_EQ(mcp::random_hex(1500).size(), 3000u);  // more than one pool at once
    EXPECT_EQ(mcp::random_hex(0), "");
}

TEST(RandomId, UuidsAreVersionFourWithEveryVariantDigit) {
    const std::regex layout("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    std::set<std::string> seen;
    std::set<char> variants;
    for (int i = 0; i < 1000; ++i) {
        std::string id = mcp::random_uuid();
        ASSERT_TRUE(std::regex_match(id, layout)) << id;
        ASSERT_TRUE(seen.insert(id).second) << "repeated: " << id;
        variants.insert(id[19]);
    }
    // The variant keeps two random bits: all four digits turn up (each missing: (3/4)^1000).
    EXPECT_EQ(variants, (std::set<char>{'8', '9', 'a', 'b'}));
}
