// What a client may send against an application's schema: a string of a megabyte against a
// `pattern` (libstdc++'s default regex executor recursed once per character and overflowed the
// stack), and a large array under `uniqueItems` (once compared pair by pair). And what a server
// may declare for the host to check against: a schema whose work doubles at each level.

#include "mcp/schema/JsonSchema.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <string>

namespace json = boost::json;

namespace {

mcp::JsonSchema schema(std::string_view text) { return mcp::JsonSchema::compile(json::parse(text)); }

}  // namespace

TEST(HostileInstances, AMegabyteStringIsCheckedAgainstAPatternWithoutOverflowingTheStack) {
    mcp::JsonSchema letters = schema(R"({"type": "string", "pattern": "^[a-z]*$"})");
    std::string long_text(1 << 20, 'a');
    EXPECT_EQ(letters.validate(json::value(long_text)), std::nullopt);
    long_text.back() = '7';
    auto problem = letters.validate(json::value(long_text));
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->find("must match the pattern"), std::string::npos) << *problem;

    mcp::JsonSchema keys = schema(R"({"type": "object", "patternProperties": {"^(x|y)+$": {"type": "integer"}}})");
    json::object object;
    object[std::string(1 << 20, 'x')] = "not an integer";
    EXPECT_TRUE(keys.validate(object));
}

TEST(HostileInstances, AnUnanchoredPatternIsSearchedInOnePassAndKeepsItsMeaning) {
    // Searched from each position in turn this took minutes: 200,000 letters and no "@".
    mcp::JsonSchema email = schema(R"({"type": "string", "pattern": "[a-z]+@[a-z]+"})");
    std::string letters(200000, 'a');
    auto problem = email.validate(json::value(letters));
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->find("must match the pattern"), std::string::npos) << *problem;
    letters[150000] = '@';
    EXPECT_EQ(email.validate(json::value(letters)), std::nullopt);
    // Anchors, alternatives and word boundaries mean what they did.
    EXPECT_TRUE(schema(R"({"pattern": "^b"})").validate(json::value("ab")));
    EXPECT_EQ(schema(R"({"pattern": "b$"})").validate(json::value("ab")), std::nullopt);
    EXPECT_TRUE(schema(R"({"pattern": "a$"})").validate(json::value("ab")));
    EXPECT_EQ(schema(R"({"pattern": "x|b"})").validate(json::value("ab")), std::nullopt);
    EXPECT_EQ(schema(R"({"pattern": "\\bcat\\b"})").validate(json::value("a cat sat")), std::nullopt);
    EXPECT_TRUE(schema(R"({"pattern": "\\bcat\\b"})").validate(json::value("concatenate")));
    EXPECT_EQ(schema(R"({"pattern": ""})").validate(json::value("anything")), std::nullopt);
    // A pattern that is not valid on its own stays refused, even where the wrapping would close it.
    EXPECT_THROW(schema(R"({"pattern": ")(?:x"})"), std::invalid_argument);
}

TEST(HostileInstances, BackReferencesWorkOnShortTextAndRefuseLongText) {
    mcp::JsonSchema doubled = schema(R"({"type": "string", "pattern": "^(ab+)\\1$"})");
    EXPECT_EQ(doubled.validate(json::value("abbabb")), std::nullopt);
    EXPECT_TRUE(doubled.validate(json::value("abbab")));
    auto problem = doubled.validate(json::value(std::string(5000, 'b')));
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->find("back-references"), std::string::npos) << *problem;
}

TEST(HostileInstances, UniqueItemsOfALargeArrayAndEqualityByValue) {
    mcp::JsonSchema unique = schema(R"({"type": "array", "uniqueItems": true})");
    json::array distinct;
    for (int i = 0; i < 300000; ++i) distinct.push_back(i);
    EXPECT_EQ(unique.validate(distinct), std::nullopt);
    json::array same(300000, json::value(0));
    auto problem = unique.validate(same);
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->find("items 0 and 1 are equal"), std::string::npos) << *problem;
    // Equal by value: numbers whatever their form, objects whatever their key order.
    EXPECT_TRUE(unique.validate(json::parse(R"([1, 2, 1.0])")));
    EXPECT_TRUE(unique.validate(json::parse(R"([{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}])")));
    EXPECT_EQ(unique.validate(json::parse(R"([{"a": 1}, {"a": 2}, [1], [[1]], -0.5, 0, false, null, ""])")), std::nullopt);
}

TEST(HostileInstances, ASchemaThatDoublesItsWorkAtEachLevelIsStoppedWithAReason) {
    // d0 → allOf [d1, d1] → … → d40: 2^40 evaluations of one small value.
    json::object definitions;
    for (int level = 0; level < 40; ++level) {
        std::string next = "#/$defs/d" + std::to_string(level + 1);
        definitions["d" + std::to_string(level)] =
            json::object{{"allOf", json::array{json::object{{"$ref", next}}, json::object{{"$ref", next}}}}};
    }
    definitions["d40"] = json::object{{"type", "integer"}};
    json::object document{{"$defs", definitions}, {"$ref", "#/$defs/d0"}};
    mcp::JsonSchema doubling = mcp::JsonSchema::compile(document);
    auto problem = doubling.validate(json::value(7));
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->find("steps"), std::string::npos) << *problem;
    EXPECT_FALSE(doubling.is_valid(json::value(7)));

    // Ten levels (1024 evaluations) are an ordinary schema's work and pass.
    definitions["d10"] = json::object{{"type", "integer"}};
    document["$defs"] = definitions;
    EXPECT_EQ(mcp::JsonSchema::compile(document).validate(json::value(7)), std::nullopt);
}
