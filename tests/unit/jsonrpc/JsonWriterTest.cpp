#include "mcp/jsonrpc/JsonWriter.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <random>

using mcp::jsonrpc::to_json_text;
namespace json = boost::json;

TEST(JsonWriter, DoublesAreWrittenAsPeopleWriteThem) {
    EXPECT_EQ(to_json_text(100.0), "100");
    EXPECT_EQ(to_json_text(13.93), "13.93");
    EXPECT_EQ(to_json_text(0.1), "0.1");
    EXPECT_EQ(to_json_text(-2.5), "-2.5");
    EXPECT_EQ(to_json_text(0.0), "0");
    EXPECT_EQ(to_json_text(-0.0), "0");
    EXPECT_EQ(to_json_text(1e21), "1e+21");
    EXPECT_EQ(to_json_text(1.5e-7), "1.5e-07");
    // Boost.JSON 1.81 writes these as "1E2" and "1.393E1", which is what this writer exists to avoid.
    EXPECT_EQ(json::serialize(json::value(100.0)), "1E2");
}

// A progressToken of 1e999 parses as infinity; it once came back as null, which no client matches.
TEST(JsonWriter, InfinitiesReadBackAsThemselvesAndNaNIsNull) {
    EXPECT_EQ(to_json_text(std::numeric_limits<double>::infinity()), "1e999");
    EXPECT_EQ(to_json_text(-std::numeric_limits<double>::infinity()), "-1e999");
    EXPECT_EQ(to_json_text(std::numeric_limits<double>::quiet_NaN()), "null");
    json::value token = json::parse(R"({"progressToken":1e999})");
    EXPECT_EQ(to_json_text(token), R"({"progressToken":1e999})");
    EXPECT_EQ(json::parse(to_json_text(token)), token);
}

TEST(JsonWriter, IntegersKeepEveryDigit) {
    EXPECT_EQ(to_json_text(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
    EXPECT_EQ(to_json_text(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
    EXPECT_EQ(to_json_text(json::value(0)), "0");
}

TEST(JsonWriter, StringsAreEscapedAsJsonRequires) {
    EXPECT_EQ(to_json_text("plain"), R"("plain")");
    EXPECT_EQ(to_json_text("a\"b\\c"), R"("a\"b\\c")");
    EXPECT_EQ(to_json_text("\b\f\n\r\t"), R"("\b\f\n\r\t")");
    EXPECT_EQ(to_json_text(json::string(std::string("\x00\x01\x1f", 3))), R"("\u0000\u0001\u001f")");
    EXPECT_EQ(to_json_text("/ \x7f é ✓"), "\"/ \x7f é ✓\"");
}

TEST(JsonWriter, ContainersKeepTheirOrder) {
    json::value value = json::parse(R"({"b":[1,2.5,"x",null,true,false,{}],"a":{"c":[]},"e":""})");
    EXPECT_EQ(to_json_text(value), R"({"b":[1,2.5,"x",null,true,false,{}],"a":{"c":[]},"e":""})");
}

TEST(JsonWriter, EveryValueReadsBackEqual) {
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> any_double(-1e6, 1e6);
    std::uniform_int_distribution<int> any_byte(0, 255);
    for (int round = 0; round < 2000; ++round) {
        json::object object;
        double number = any_double(random) / double(1 + round % 97);
        std::string bytes;
        for (int i = 0; i < 12; ++i) bytes += static_cast<char>(any_byte(random) & 0x7f);
        object["n"] = number;
        object["s"] = bytes;
        object["i"] = static_cast<std::int64_t>(random());
        // Boost.JSON 1.81's parser may miss a double by one unit in the last place, so the number
        // is read back by the standard library, which is exact.
        std::string number_text = to_json_text(number);
        double read = 0;
        std::from_chars(number_text.data(), number_text.data() + number_text.size(), read);
        ASSERT_EQ(read, number) << number_text;
        json::value back = json::parse(to_json_text(object));
        ASSERT_EQ(back.at("s").as_string(), bytes);
        ASSERT_EQ(back.at("i"), object["i"]);
    }
}
