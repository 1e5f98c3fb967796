#include "mcp/jsonrpc/Codec.hpp"

#include "mcp/jsonrpc/ErrorCodes.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

using namespace mcp::jsonrpc;
namespace json = boost::json;

namespace {

Message decode_message(std::string_view text) {
    Decoder decoder;
    Decoded decoded = decoder.decode(text);
    EXPECT_FALSE(decoded.is_batch);
    auto* message = std::get_if<Message>(&decoded.single);
    if (!message) {
        ADD_FAILURE() << "expected a message, got error: " << std::get<DecodeError>(decoded.single).error.message;
        return Notification{};
    }
    return std::move(*message);
}

DecodeError decode_error(std::string_view text) {
    Decoder decoder;
    Decoded decoded = decoder.decode(text);
    auto* error = std::get_if<DecodeError>(&decoded.single);
    if (!error) {
        ADD_FAILURE() << "expected an error for " << text;
        return {};
    }
    return *error;
}

}  // namespace

TEST(Codec, DecodesRequestsWithIntegerAndStringIds) {
    auto request = std::get<Request>(decode_message(R"({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}})"));
    EXPECT_EQ(request.id, RequestId(7));
    EXPECT_EQ(request.method, "tools/list");
    EXPECT_TRUE(request.params.is_object());
    auto named = std::get<Request>(decode_message(R"({"jsonrpc":"2.0","id":"abc","method":"ping"})"));
    EXPECT_EQ(named.id, RequestId("abc"));
    EXPECT_TRUE(named.params.is_null());
}

TEST(Codec, DecodesNotificationsAndResponses) {
    auto notification = std::get<Notification>(decode_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
    EXPECT_EQ(notification.method, "notifications/initialized");
    auto response = std::get<Response>(decode_message(R"({"jsonrpc":"2.0","id":3,"result":{"ok":true}})"));
    EXPECT_FALSE(response.is_error());
    EXPECT_EQ(response.result.at("ok").as_bool(), true);
    auto failure = std::get<Response>(
        decode_message(R"({"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"nope","data":{"x":1}}})"));
    ASSERT_TRUE(failure.is_error());
    EXPECT_EQ(failure.error->code, -32601);
    EXPECT_EQ(failure.error->data.at("x").as_int64(), 1);
}

TEST(Codec, RejectsMalformedJsonWithParseError) {
    auto error = decode_error(R"({"jsonrpc":"2.0","id":1,"method":)");
    EXPECT_EQ(error.error.code, error_code::parse_error);
    EXPECT_TRUE(error.id.is_null());
    EXPECT_EQ(decode_error("garbage").error.code, error_code::parse_error);
    EXPECT_EQ(decode_error(R"({"a":1} trailing)").error.code, error_code::parse_error);
}

TEST(Codec, RejectsInvalidEnvelopesNamingTheField) {
    struct Case {
        const char* text;
        const char* field;
        bool keeps_id;
    };
    for (const Case& c : {Case{R"({"id":1,"method":"x"})", "jsonrpc", true},
                          Case{R"({"jsonrpc":"1.0","id":1,"method":"x"})", "jsonrpc", true},
                          Case{R"({"jsonrpc":"2.0","id":1,"method":5})", "method", true},
                          Case{R"({"jsonrpc":"2.0","id":1,"method":"x","params":"s"})", "params", true},
                          Case{R"({"jsonrpc":"2.0","id":null,"method":"x"})", "id", false},
                          Case{R"({"jsonrpc":"2.0","id":1.5,"method":"x"})", "id", false},
                          Case{R"({"jsonrpc":"2.0","id":{},"method":"x"})", "id", false},
                          Case{R"({"jsonrpc":"2.0","id":1})", "method", true},
                          Case{R"([1])", "object", false},
                          Case{R"(42)", "object", false}}) {
        Decoder decoder;
        Decoded decoded = decoder.decode(c.text);
        const DecodeError* error = decoded.is_batch ? std::get_if<DecodeError>(&decoded.batch.at(0))
                                                    : std::get_if<DecodeError>(&decoded.single);
        ASSERT_NE(error, nullptr) << c.text;
        EXPECT_EQ(error->error.code, error_code::invalid_request) << c.text;
        EXPECT_NE(error->error.message.find(c.field), std::string::npos) << c.text << " -> " << error->error.message;
        EXPECT_EQ(!error->id.is_null(), c.keeps_id) << c.text;
    }
}

TEST(Codec, DecodesBatchesMemberByMember) {
    Decoder decoder;
    Decoded decoded = decoder.decode(R"([{"jsonrpc":"2.0","id":1,"method":"a"},{"bad":true},{"jsonrpc":"2.0","method":"n"}])");
    ASSERT_TRUE(decoded.is_batch);
    ASSERT_EQ(decoded.batch.size(), 3u);
    EXPECT_TRUE(std::holds_alternative<Message>(decoded.batch[0]));
    EXPECT_TRUE(std::holds_alternative<DecodeError>(decoded.batch[1]));
    EXPECT_TRUE(std::holds_alternative<Message>(decoded.batch[2]));
    EXPECT_EQ(decode_error("[]").error.code, error_code::invalid_request);
}

TEST(Codec, ABatchOfMoreThanAThousandIsOneInvalidRequest) {
    auto batch_of = [](std::size_t members) {
        std::string text = "[";
        for (std::size_t i = 0; i < members; ++i) text += i ? ",1" : "1";
        return text + "]";
    };
    Decoder decoder;
    Decoded most = decoder.decode(batch_of(max_batch_members));
    EXPECT_TRUE(most.is_batch);
    EXPECT_EQ(most.batch.size(), max_batch_members);
    DecodeError refused = decode_error(batch_of(2000000));
    EXPECT_EQ(refused.error.code, error_code::invalid_request);
    EXPECT_NE(refused.error.message.find("a batch of 2000000 messages; at most 1000"), std::string::npos) << refused.error.message;
}

TEST(Codec, EncodesEveryKindAndDecodesItBack) {
    std::vector<Message> messages = {
        Request{RequestId(1), "tools/call", json::parse(R"({"name":"echo","arguments":{"text":"a\"b\n"}})")},
        Request{RequestId("x-1"), "ping", nullptr},
        Notification{"notifications/progress", json::parse(R"({"progressToken":1,"progress":0.5})")},
        Response{RequestId(9), json::parse(R"({"content":[]})"), std::nullopt},
        Response{RequestId(), nullptr, ErrorObject{-32700, "Parse error", nullptr}},
        Response{RequestId("e"), nullptr, ErrorObject{-32602, "bad", json::parse(R"({"uri":"u"})")}},
    };
    for (const auto& message : messages) {
        std::string text;
        encode(text, message);
        json::value parsed = json::parse(text);
        EXPECT_EQ(parsed.at("jsonrpc").as_string(), "2.0") << text;
        Decoder decoder;
        Decoded decoded = decoder.decode(text);
        ASSERT_TRUE(std::holds_alternative<Message>(decoded.single)) << text;
        std::string again;
        encode(again, std::get<Message>(decoded.single));
        EXPECT_EQ(text, again);
    }
}

TEST(Codec, LimitsNestingDepth) {
    std::string deep(1000, '[');
    deep += std::string(1000, ']');
    EXPECT_EQ(decode_error(deep).error.code, error_code::parse_error);
}
