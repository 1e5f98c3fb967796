// How the providers' answers are read: characters split between events, the stop reasons that
// end an answer short, reasoning kept apart, Anthropic's block events, and what goes back to a
// provider with the next request (reasoning_content, extra_content, signed thinking blocks).

#include "host/llm/AnswerEndings.hpp"
#include "host/llm/AnthropicAnswerReader.hpp"
#include "host/llm/AnthropicModel.hpp"
#include "host/llm/GeminiAnswerReader.hpp"
#include "host/llm/ModelErrors.hpp"
#include "host/llm/OpenAiAnswerReader.hpp"
#include "host/llm/OpenAiChatModel.hpp"
#include "host/llm/ScratchJson.hpp"
#include "host/llm/SurrogateHalves.hpp"
#include "host/llm/TextToolCalls.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <mcp/transport/HttpServer.hpp>

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

namespace mcpkit::host {
namespace {

namespace json = boost::json;

struct RecordedAnswer : AnswerSink {
    std::vector<std::string> texts;
    std::string reasoning_text;
    void text(std::string_view piece) override { texts.emplace_back(piece); }
    void reasoning(std::string_view piece) override { reasoning_text += piece; }
};

/// Feeds OpenAI chunks (event data) through the same parser and reader as a stream.
ModelReply read_openai(const std::vector<std::string>& events, RecordedAnswer& sink) {
    ModelReply reply;
    StreamedAnswer answer(sink, reply);
    OpenAiAnswerReader reader(reply, answer);
    ScratchJson scratch;
    for (const auto& data : events) {
        const json::value* chunk = scratch.parse(data);
        if (!chunk) throw std::runtime_error("not JSON: " + data);
        reader.read(chunk->get_object());
        answer.flush();
    }
    answer.finish();
    reader.finish();
    return reply;
}

TEST(SurrogateHalves, AnEmojiCutBetweenTwoEventsIsJoinedAndALoneHalfBecomesAReplacement) {
    RecordedAnswer sink;
    ModelReply reply = read_openai({R"({"choices":[{"delta":{"content":"smile \ud83d"}}]})",
                                    R"({"choices":[{"delta":{"content":"\ude00 done"}}]})",
                                    R"({"choices":[{"delta":{"content":" lone \udc00 and \ud83d"}}]})"},
                                   sink);
    EXPECT_EQ(reply.text, "smile \xF0\x9F\x98\x80 done lone \xEF\xBF\xBD and \xEF\xBF\xBD");
    EXPECT_EQ(sink.texts, (std::vector<std::string>{"smile ", "\xF0\x9F\x98\x80 done", " lone \xEF\xBF\xBD and ",
                                                    "\xEF\xBF\xBD"}))
        << "the first half is held until the second comes";
}

TEST(SurrogateHalves, WholePairsAndEscapedBackslashesAreLeftAlone) {
    std::string out = "untouched";
    EXPECT_FALSE(mend_lone_surrogates(R"({"a":"\ud83d\ude00","b":"\\ud83d"})", out));
    EXPECT_EQ(out, "untouched");
    EXPECT_TRUE(mend_lone_surrogates(R"({"a":"x\uD83D"})", out));
    EXPECT_EQ(json::parse(out).at("a").as_string().size(), 5u) << "x and a four-byte stand-in";
}

TEST(SurrogateHalves, ToolArgumentsSplitInsideTheirEscapesAreJoinedBeforeParsing) {
    RecordedAnswer sink;
    ModelReply reply = read_openai(
        {R"({"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"t","arguments":"{\"text\":\"a\ud83d"}}]}}]})",
         R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\ude00\"}"}}]}}]})"},
        sink);
    ASSERT_EQ(reply.tool_calls.size(), 1u);
    EXPECT_EQ(reply.tool_calls[0].arguments_error, "");
    EXPECT_EQ(reply.tool_calls[0].arguments.at("text"), "a\xF0\x9F\x98\x80");
}

TEST(OpenAiAnswers, StopReasonsThatCutAnAnswerShortAreSaid) {
    RecordedAnswer sink;
    EXPECT_EQ(read_openai({R"({"choices":[{"delta":{"content":"Half"},"finish_reason":"length"}]})"}, sink).ending,
              "The model stopped: output limit reached.");
    EXPECT_EQ(read_openai({R"({"choices":[{"delta":{"content":"Bad"},"finish_reason":"content_filter"}]})"}, sink).ending,
              "The provider's content filter ended the answer.");
    ModelReply refused = read_openai({R"({"choices":[{"delta":{"content":null,"refusal":"I can't"}}]})",
                                      R"({"choices":[{"delta":{"refusal":" help."},"finish_reason":"stop"}]})"},
                                     sink);
    EXPECT_EQ(refused.ending, "The model refused: I can't help.");
    EXPECT_EQ(refused.text, "");
    EXPECT_EQ(read_openai({R"({"choices":[{"delta":{"content":""},"finish_reason":"stop"}]})"}, sink).ending,
              "The model's answer was empty.");
    EXPECT_EQ(read_openai({R"({"choices":[{"delta":{"content":"Fine"},"finish_reason":"stop"}]})"}, sink).ending, "");
}

TEST(OpenAiAnswers, NumbersOfAnyFormNeitherThrowNorOverflow) {
    // Found by fuzz_provider_answers: a fractional index threw out of the reader, and 1e300 cast
    // to an integer is undefined behaviour.
    RecordedAnswer sink;
    ModelReply reply = read_openai(
        {R"({"choices":[{"delta":{"tool_calls":[{"index":1.5,"id":"c1","function":{"name":"t","arguments":"{}"}}]}}]})",
         R"({"choices":[],"usage":{"prompt_tokens":1e300,"completion_tokens":-1e300,"total_tokens":2.5}})"},
        sink);
    EXPECT_EQ(reply.tool_calls.size(), 1u);
    EXPECT_EQ(reply.usage.prompt_tokens, 1'000'000'000'000'000) << "bounded, so that running sums cannot overflow";
    EXPECT_EQ(reply.usage.completion_tokens, 0);
    EXPECT_EQ(reply.usage.total_tokens, 2);
}

TEST(OpenAiAnswers, ReasoningStaysOutOfTheTextAndGroqUsageIsRead) {
    RecordedAnswer sink;
    ModelReply reply = read_openai({R"({"choices":[{"delta":{"reasoning_content":"Think."}}]})",
                                    R"({"choices":[{"delta":{"content":"Answer"},"finish_reason":"stop"}],)"
                                    R"("x_groq":{"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}}})"},
                                   sink);
    EXPECT_EQ(reply.text, "Answer");
    EXPECT_EQ(reply.reasoning, "Think.");
    EXPECT_EQ(sink.reasoning_text, "Think.");
    EXPECT_TRUE(reply.provider_data.contains("reasoning_content")) << "DeepSeek wants it back";
    EXPECT_EQ(reply.usage.total_tokens, 10);
    EXPECT_THROW(read_openai({R"({"error":{"message":"Overloaded"}})"}, sink), ModelError);
}

TEST(OpenAiRequest, OptionalParametersOnlyWhenSetAndOpenAiItselfGetsMaxCompletionTokens) {
    std::vector<ChatMessage> history(1);
    history[0].id = "m1";
    history[0].content = "Hi";
    ModelRequest request;
    request.history = history;
    OpenAiChatModel local({.provider = "openai", .model = "m", .base_url = "http://127.0.0.1:8080/v1"});
    json::object plain = json::parse(local.request_text(request)).as_object();
    EXPECT_FALSE(plain.contains("temperature"));
    EXPECT_FALSE(plain.contains("max_tokens"));
    EXPECT_FALSE(plain.contains("max_completion_tokens"));
    request.max_output_tokens = 100;
    EXPECT_EQ(json::parse(local.request_text(request)).at("max_tokens"), 100);
    OpenAiChatModel openai({.provider = "openai", .model = "gpt-5", .base_url = "https://api.openai.com/v1"});
    json::object official = json::parse(openai.request_text(request)).as_object();
    EXPECT_EQ(official.at("max_completion_tokens"), 100);
    EXPECT_FALSE(official.contains("max_tokens"));
    request.model = "o4-mini";
    EXPECT_EQ(json::parse(openai.request_text(request)).at("model"), "o4-mini") << "the conversation's pick";
}

TEST(OpenAiRequest, WhatProvidersNeedBackGoesBackAndAFailedAnswerDoesNot) {
    std::vector<ChatMessage> history(5);
    history[0] = {.id = "u1", .role = Role::user, .content = "Call it"};
    history[1] = {.id = "a1", .role = Role::assistant};
    history[1].reasoning = "I should call t.";
    history[1].provider_data["reasoning_content"] = true;
    ToolCall call{.id = "c1", .name = "t"};
    call.provider_data["extra_content"] = json::object{{"google", {{"thought_signature", "c2ln"}}}};
    history[1].tool_calls.push_back(call);
    history[2] = {.id = "r1", .role = Role::tool, .content = "done", .tool_call_id = "c1", .tool_name = "t"};
    history[3] = {.id = "u2", .role = Role::user, .content = "Again"};
    history[4] = {.id = "a2", .role = Role::assistant};
    history[4].is_error = true;
    history[4].ending = "The model server failed (HTTP 500).";
    ModelRequest request;
    request.history = history;
    OpenAiChatModel model({.provider = "openai", .model = "m", .base_url = "http://x/v1"});
    json::array messages = json::parse(model.request_text(request)).at("messages").as_array();
    ASSERT_EQ(messages.size(), 4u) << "the failure record is no message of the model's";
    EXPECT_EQ(messages[1].at("reasoning_content"), "I should call t.");
    EXPECT_EQ(messages[1].at("tool_calls").at(0).at("extra_content").at("google").at("thought_signature"), "c2ln");
}

ModelReply read_gemini(const std::vector<std::string>& chunks, RecordedAnswer& sink) {
    ModelReply reply;
    StreamedAnswer answer(sink, reply);
    GeminiAnswerReader reader(reply, answer);
    for (const auto& chunk : chunks) reader.read(json::parse(chunk).as_object());
    answer.finish();
    reader.finish();
    return reply;
}

TEST(GeminiAnswers, ThoughtsApartCallsWithSignaturesAndEachFinishReasonSaid) {
    RecordedAnswer sink;
    ModelReply reply = read_gemini(
        {R"({"candidates":[{"content":{"role":"model","parts":[{"text":"Weighing it.","thought":true}]}}]})",
         R"({"candidates":[{"content":{"role":"model","parts":[{"text":"Sure."},)"
         R"({"functionCall":{"name":"w__get","args":{"city":"Oslo"}},"thoughtSignature":"c2ln"}]},"finishReason":"STOP"}],)"
         R"("usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":3,"totalTokenCount":20}})"},
        sink);
    EXPECT_EQ(reply.reasoning, "Weighing it.");
    EXPECT_EQ(reply.text, "Sure.");
    ASSERT_EQ(reply.tool_calls.size(), 1u);
    EXPECT_EQ(reply.tool_calls[0].provider_data.at("thoughtSignature"), "c2ln");
    EXPECT_EQ(reply.usage.total_tokens, 20);
    EXPECT_EQ(reply.ending, "");
    EXPECT_EQ(read_gemini({R"({"candidates":[{"content":{"parts":[{"text":"Part"}]}}]})",
                           R"({"candidates":[{"finishReason":"SAFETY","safetyRatings":[{"blocked":true}]}]})"},
                          sink)
                  .ending,
              "The provider's safety filter ended the answer (SAFETY).");
    EXPECT_EQ(read_gemini({R"({"candidates":[{"content":{"role":"model"},"finishReason":"MAX_TOKENS"}],)"
                           R"("usageMetadata":{"thoughtsTokenCount":4000}})"},
                          sink)
                  .ending,
              answer_endings::thinking_used_limit())
        << "no parts at all: the thinking spent the limit";
    EXPECT_EQ(read_gemini({R"({"candidates":[{"content":{"parts":[{"text":"Some"}]},"finishReason":"MAX_TOKENS"}]})"}, sink).ending,
              answer_endings::output_limit());
    EXPECT_THROW(read_gemini({R"({"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL"}]})"}, sink), ModelError);
    EXPECT_THROW(read_gemini({R"({"promptFeedback":{"blockReason":"SAFETY"}})"}, sink), ModelError);
}

TEST(GeminiAnswers, MoreToolCallsThanAnyAnswerHoldsAreRefused) {
    auto calls_event = [](std::size_t count) {
        std::string parts;
        for (std::size_t i = 0; i < count; ++i) parts += std::string(i ? "," : "") + R"({"functionCall":{"name":"w__get","args":{}}})";
        return R"({"candidates":[{"content":{"role":"model","parts":[)" + parts + "]}}]}";
    };
    RecordedAnswer sink;
    EXPECT_EQ(read_gemini({calls_event(max_tool_calls_per_answer)}, sink).tool_calls.size(), max_tool_calls_per_answer);
    try {
        read_gemini({calls_event(max_tool_calls_per_answer), calls_event(1)}, sink);
        ADD_FAILURE() << "one call past the limit was kept";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("more than 1000 tool calls"), std::string::npos) << e.what();
        EXPECT_FALSE(e.transient);
    }
}

TEST(AnthropicAnswers, BlocksStreamIntoTextCallsAndSignedThinking) {
    RecordedAnswer sink;
    ModelReply reply;
    StreamedAnswer answer(sink, reply);
    AnthropicAnswerReader reader(reply, answer);
    for (const char* event : {
             R"({"type":"message_start","message":{"usage":{"input_tokens":12,"output_tokens":1}}})",
             R"({"type":"ping"})",
             R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}})",
             R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Two calls."}})",
             R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig=="}})",
             R"({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})",
             R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"On it."}})",
             R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"a","input":{}}})",
             R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"x\":"}})",
             R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"1}"}})",
             R"({"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_2","name":"b","input":{}}})",
             R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":40}})",
             R"({"type":"message_stop"})"})
        reader.read(json::parse(event).as_object());
    answer.finish();
    reader.finish();
    EXPECT_EQ(reply.text, "On it.");
    EXPECT_EQ(reply.reasoning, "Two calls.");
    ASSERT_EQ(reply.tool_calls.size(), 2u);
    EXPECT_EQ(reply.tool_calls[0].arguments.at("x"), 1);
    EXPECT_TRUE(reply.tool_calls[1].arguments.empty()) << "no input fragments: no arguments";
    EXPECT_EQ(reply.provider_data.at("thinking"),
              (json::array{{{"type", "thinking"}, {"thinking", "Two calls."}, {"signature", "sig=="}}}));
    EXPECT_EQ(reply.usage.prompt_tokens, 12);
    EXPECT_EQ(reply.usage.completion_tokens, 40);
    EXPECT_EQ(reply.ending, "");
    EXPECT_THROW(reader.read(json::parse(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})").as_object()),
                 ModelError);
}

TEST(AnthropicRequest, ToolResultsInOneUserMessageThinkingFirstAndALimitAlways) {
    std::vector<ChatMessage> history(4);
    history[0] = {.id = "u1", .role = Role::user, .content = "Both"};
    history[1] = {.id = "a1", .role = Role::assistant};
    history[1].provider_data["thinking"] = json::array{{{"type", "thinking"}, {"thinking", "t"}, {"signature", "s"}}};
    history[1].tool_calls = {{.id = "k1", .name = "a"}, {.id = "k2", .name = "b"}};
    history[2] = {.id = "r1", .role = Role::tool, .content = "A", .tool_call_id = "k1"};
    history[3] = {.id = "r2", .role = Role::tool, .content = "B", .tool_call_id = "k2", .is_error = true};
    ModelRequest request;
    request.system_prompt = "Be brief.";
    request.history = history;
    AnthropicModel model({.provider = "anthropic", .model = "claude", .base_url = "https://api.anthropic.com/v1"});
    json::object body = json::parse(model.request_text(request)).as_object();
    EXPECT_EQ(body.at("system"), "Be brief.");
    EXPECT_EQ(body.at("max_tokens"), 8192) << "required by the API";
    EXPECT_FALSE(body.contains("temperature"));
    const auto& messages = body.at("messages").as_array();
    ASSERT_EQ(messages.size(), 3u);
    history[1].content = "\n\n";
    EXPECT_EQ(json::parse(model.request_text(request)).at("messages").at(1).at("content").as_array().size(), 3u)
        << "white space alone is no text block (Anthropic refuses one)";
    EXPECT_EQ(messages[1].at("content").at(0).at("type"), "thinking") << "unchanged, before the calls";
    EXPECT_EQ(messages[1].at("content").at(1).at("type"), "tool_use");
    EXPECT_EQ(messages[2].at("content").as_array().size(), 2u);
    EXPECT_EQ(messages[2].at("content").at(1).at("is_error"), true);
}

TEST(ModelErrors, PlainWordsForThePersonTheProviderSideApart) {
    mcp::HttpResponse quota;
    quota.status = 429;
    quota.body = R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}})";
    ModelError billing = model_error_from_response(quota, "openai");
    EXPECT_FALSE(billing.transient) << "waiting does not refill a quota";
    EXPECT_EQ(std::string(billing.what()).find('{'), std::string::npos);
    mcp::HttpResponse unsupported;
    unsupported.status = 400;
    unsupported.body = R"({"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model.",)"
                       R"("param":"max_tokens","code":"unsupported_parameter"}})";
    EXPECT_EQ(model_error_from_response(unsupported, "openai").unsupported_parameter, "max_tokens");
    mcp::HttpResponse gateway;
    gateway.status = 502;
    gateway.headers = {{"Retry-After", "inf"}};
    gateway.body = std::string(290, 'x') + "\xE9t\xC3\xA9 \xF0\x9F\x98\x80\xF0\x9F";  // Latin-1, then UTF-8 cut short
    ModelError bad_gateway = model_error_from_response(gateway, "openai");
    EXPECT_FALSE(bad_gateway.retry_after) << "no delay from \"inf\"";
    EXPECT_TRUE(bad_gateway.transient);
    std::string details = bad_gateway.details;
    bool valid = true;
    for (std::size_t at = 0; at < details.size(); ++at)
        valid = valid && !(static_cast<unsigned char>(details[at]) == 0xE9 || (details[at] == '\xF0' && at + 3 >= details.size()));
    EXPECT_TRUE(valid) << "details are valid UTF-8, for the page: " << details;
    EXPECT_NE(details.find("\xEF\xBF\xBD"), std::string::npos) << "bad bytes become U+FFFD";
    ModelError unreachable = connection_error("openai", "cannot connect to 127.0.0.1:9: Connection refused");
    EXPECT_TRUE(unreachable.transient);
    EXPECT_EQ(std::string(unreachable.what()).find("127.0.0.1"), std::string::npos) << "the address is a detail";
    EXPECT_NE(unreachable.details.find("127.0.0.1"), std::string::npos);
}

/// A chat-completions server that takes no output limit under either name, as some gateways do:
/// it names the one it got as unsupported (400), like OpenAI's reasoning models.
class NoLimitServer : public mcp::HttpRoutes {
public:
    std::vector<std::string> limits_seen;  ///< per request: the limit's name, or "none"
    bool serves(std::string_view path) const override { return path == "/v1/chat/completions"; }
    std::size_t max_body_bytes(std::string_view) const override { return 1 << 20; }
    void handle(mcp::HttpRouteRequest request, std::function<void(mcp::HttpRouteResponse)> respond) override {
        json::object body = json::parse(request.body).as_object();
        for (const char* name : {"max_tokens", "max_completion_tokens"})
            if (body.contains(name)) {
                limits_seen.emplace_back(name);
                respond({400, std::string(R"({"error":{"message":"Unsupported parameter: ')") + name +
                                  R"(' is not supported.","type":"invalid_request_error","param":")" + name +
                                  R"(","code":"unsupported_parameter"}})"});
                return;
            }
        limits_seen.emplace_back("none");
        respond({200, "data: {\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
                 "text/event-stream"});
    }
};

TEST(OpenAiRequest, AServerRefusingTheLimitUnderBothNamesGetsNoneAndNoFlipFlop) {
    boost::asio::io_context io;
    auto routes = std::make_shared<NoLimitServer>();
    mcp::HttpServer server(io, {.routes = routes});
    server.start();
    OpenAiChatModel model({.provider = "openai", .model = "m", .base_url = "http://127.0.0.1:" + std::to_string(server.port()) + "/v1",
                           .max_output_tokens = 100});
    std::vector<ChatMessage> history(1);
    history[0] = {.id = "u1", .role = Role::user, .content = "Hi"};
    ModelRequest request;
    request.history = history;
    std::vector<std::string> texts;
    boost::asio::co_spawn(
        io,
        [&]() -> boost::asio::awaitable<void> {
            for (int turn = 0; turn < 2; ++turn) {
                AnswerSink quiet;
                mcp::CancellationToken never;
                ModelReply reply = co_await model.generate(request, never, quiet);
                texts.push_back(reply.text);
            }
        },
        [&](std::exception_ptr failure) {
            server.stop([&io] { io.stop(); });
            if (failure) std::rethrow_exception(failure);
        });
    io.run();
    EXPECT_EQ(texts, (std::vector<std::string>{"ok", "ok"}));
    EXPECT_EQ(routes->limits_seen, (std::vector<std::string>{"max_tokens", "max_completion_tokens", "none", "none"}))
        << "each name tried once, then none, remembered for the next answer";
}

/// Streams its pieces as given, for the text tool-call wrapper to filter.
class PiecesModel : public LanguageModel {
public:
    explicit PiecesModel(std::vector<std::string> pieces) : pieces_(std::move(pieces)) {}
    boost::asio::awaitable<ModelReply> generate(const ModelRequest&, mcp::CancellationToken, AnswerSink& sink) override {
        ModelReply reply;
        for (const auto& piece : pieces_) {
            sink.text(piece);
            reply.text += piece;
        }
        co_return reply;
    }
    const ModelSettings& settings() const override { return settings_; }
    boost::asio::awaitable<std::vector<ModelChoice>> list_models(mcp::CancellationToken) override {
        co_return std::vector<ModelChoice>{};
    }

private:
    std::vector<std::string> pieces_;
    ModelSettings settings_;
};

TEST(TextToolCalls, AFencedCallIsNotShownEvenWhenItsFenceIsCutAcrossPieces) {
    auto model = with_text_tool_calls(std::make_unique<PiecesModel>(std::vector<std::string>{
        "Let me look.\n`", "``json\n{\"tool\": \"fs__read\", \"argu", "ments\": {\"path\": \"a\"}}\n``", "`\nDone `x` and ``",
        "`code```"}));
    RecordedAnswer sink;
    ModelRequest request;
    boost::asio::io_context io;
    auto reply = boost::asio::co_spawn(io, model->generate(request, {}, sink), boost::asio::use_future);
    io.run();
    ModelReply answer = reply.get();
    std::string shown;
    for (const auto& piece : sink.texts) shown += piece;
    EXPECT_EQ(shown, "Let me look.\n\nDone `x` and ```code```") << "the call's block is the host's; other backticks are text";
    ASSERT_EQ(answer.tool_calls.size(), 1u);
    EXPECT_EQ(answer.tool_calls[0].arguments.at("path"), "a");
}

}  // namespace
}  // namespace mcpkit::host
