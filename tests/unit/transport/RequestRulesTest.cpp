#include "transport/http/RequestRules.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

using namespace mcp::http;
namespace json = boost::json;

namespace {
mcp::jsonrpc::Decoded decode(std::string_view text) {
    mcp::jsonrpc::Decoder decoder;
    return decoder.decode(text);
}
constexpr std::string_view modern_call =
    R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{},)"
    R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
}  // namespace

TEST(RequestRules, EraFollowsSessionHeaderAndMeta) {
    EXPECT_FALSE(is_modern_request(true, "2026-07-28", true));
    EXPECT_FALSE(is_modern_request(false, "", false));
    EXPECT_FALSE(is_modern_request(false, "2025-11-25", false));  // initialize with a header
    EXPECT_TRUE(is_modern_request(false, "2026-07-28", false));
    EXPECT_TRUE(is_modern_request(false, "v999.0.0", true));
    EXPECT_TRUE(is_modern_request(false, "", true));
}

TEST(RequestRules, StandardHeadersMustMatchTheBody) {
    auto decoded = decode(modern_call);
    EXPECT_FALSE(check_standard_headers(decoded, std::string_view("2026-07-28"), std::string_view("tools/call"),
                                        std::string_view("  echo  ")));
    EXPECT_FALSE(check_standard_headers(decoded, std::string_view("2026-07-28"), std::string_view("tools/call"),
                                        std::string_view("=?base64?ZWNobw==?=")));
    EXPECT_TRUE(check_standard_headers(decoded, std::nullopt, std::string_view("tools/call"), std::string_view("echo")));
    EXPECT_TRUE(check_standard_headers(decoded, std::string_view("v999"), std::string_view("tools/call"),
                                       std::string_view("echo")));
    EXPECT_TRUE(check_standard_headers(decoded, std::string_view("2026-07-28"), std::string_view("TOOLS/CALL"),
                                       std::string_view("echo")));
    EXPECT_TRUE(check_standard_headers(decoded, std::string_view("2026-07-28"), std::nullopt, std::string_view("echo")));
    EXPECT_TRUE(check_standard_headers(decoded, std::string_view("2026-07-28"), std::string_view("tools/call"), std::nullopt));
    EXPECT_TRUE(check_standard_headers(decoded, std::string_view("2026-07-28"), std::string_view("tools/call"),
                                       std::string_view("wrong")));
}

TEST(RequestRules, HeaderValuesDecodeStrictBase64) {
    EXPECT_EQ(decode_header_value("=?base64?SGVsbG8=?="), std::optional<std::string>("Hello"));
    EXPECT_EQ(decode_header_value("SGVsbG8="), std::optional<std::string>("SGVsbG8="));
    EXPECT_EQ(decode_header_value("=?base64?SGVsbG8="), std::optional<std::string>("=?base64?SGVsbG8="));
    EXPECT_FALSE(decode_header_value("=?base64?SGVsbG8?="));
    EXPECT_FALSE(decode_header_value("=?base64?SGVs!!!bG8=?="));
}

TEST(RequestRules, MirroredArgumentsMustMatchTheirHeaders) {
    auto schema = json::parse(R"({"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},)"
                              R"("priority":{"type":"integer","x-mcp-header":"Priority"},"q":{"type":"string"}}})")
                      .as_object();
    auto arguments = json::parse(R"({"region":"us-west1","priority":42,"q":"x"})").as_object();
    EXPECT_FALSE(check_parameter_headers(schema, arguments, {{"Region", "us-west1"}, {"priority", "42"}}));
    EXPECT_TRUE(check_parameter_headers(schema, arguments, {{"Region", "us-west1"}}));
    EXPECT_TRUE(check_parameter_headers(schema, arguments, {{"Region", "eu"}, {"Priority", "42"}}));
    auto without_priority = json::parse(R"({"region":"us-west1","priority":null})").as_object();
    EXPECT_FALSE(check_parameter_headers(schema, without_priority, {{"Region", "=?base64?dXMtd2VzdDE=?="}}));
}
