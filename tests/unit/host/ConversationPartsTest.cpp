// The smaller decisions of the conversation: names models accept, the context window, the
// breaker, fenced tool calls, and how each provider's request carries the history.

#include "host/history/HistoryWindow.hpp"
#include "host/coordinator/CircuitBreaker.hpp"
#include "host/coordinator/ToolNames.hpp"
#include "host/llm/GeminiModel.hpp"
#include "host/llm/OpenAiChatModel.hpp"
#include "host/llm/TextToolCalls.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace mcpkit::host {
namespace {

namespace json = boost::json;

TEST(ToolNames, QualifiedWithinSixtyFourCharactersAndDistinct) {
    EXPECT_EQ(qualified_tool_name("fs", "read_file"), "fs__read_file");
    std::regex allowed("^[A-Za-z_][A-Za-z0-9_-]{0,63}$");
    std::string long_tool(80, 'x');
    std::set<std::string> names;
    for (std::string tool : {long_tool, long_tool + "y", std::string("get:item"), std::string("get.item"), std::string("9lives")}) {
        std::string name = qualified_tool_name("server", tool);
        EXPECT_TRUE(std::regex_match(name, allowed)) << name;
        names.insert(name);
    }
    EXPECT_EQ(names.size(), 5u) << "shortened and rewritten names stay apart";
    EXPECT_EQ(qualified_tool_name("server", long_tool), qualified_tool_name("server", long_tool)) << "stable";
}

TEST(ToolNames, PairsThatReadAlikeStayApart) {
    // "a" + "_write" and "a_" + "write" both read "a___write": a hostile server named to land on
    // another's tool must not get its calls.
    EXPECT_NE(qualified_tool_name("a", "_write"), qualified_tool_name("a_", "write"));
    EXPECT_NE(qualified_tool_name("a__b", "c"), qualified_tool_name("a", "b__c"));
    for (auto [server, tool] : {std::pair{"a", "_write"}, std::pair{"a_", "write"}, std::pair{"a__b", "c"}})
        EXPECT_NE(qualified_tool_name(server, tool), std::string(server) + "__" + tool) << "hashed: " << server << " " << tool;
    EXPECT_EQ(qualified_tool_name("a", "b__c"), "a__b__c") << "split at the first __, it reads back as one pair";
}

TEST(CircuitBreaker, OpensAtTheThresholdAndClosesAfterTheWindow) {
    CircuitBreaker breaker(3, std::chrono::seconds(60));
    auto start = CircuitBreaker::Clock::now();
    breaker.record_failure("t", start);
    breaker.record_failure("t", start);
    breaker.record_success("t");  // successes count down, as the seed's breaker does
    breaker.record_failure("t", start);
    EXPECT_FALSE(breaker.is_open("t", start));
    breaker.record_failure("t", start);
    EXPECT_TRUE(breaker.is_open("t", start + std::chrono::seconds(59)));
    EXPECT_FALSE(breaker.is_open("other", start));
    EXPECT_FALSE(breaker.is_open("t", start + std::chrono::seconds(61)));
    EXPECT_EQ(breaker.failures("t"), 0) << "the window forgives everything";
}

ChatMessage message(Role role, std::string content, std::size_t id) {
    ChatMessage m;
    m.id = "m" + std::to_string(id);
    m.role = role;
    m.content = std::move(content);
    return m;
}

TEST(HistoryWindow, LeavesTheOldestOutAndStartsAtAUserMessage) {
    std::vector<ChatMessage> history;
    for (std::size_t i = 0; i < 10; ++i) {
        history.push_back(message(Role::user, std::string(400, 'u'), history.size()));
        ChatMessage assistant = message(Role::assistant, "", history.size());
        assistant.tool_calls.push_back({"c" + std::to_string(i), "s__t", {}, {}, {}});
        history.push_back(assistant);
        ChatMessage result = message(Role::tool, std::string(400, 'r'), history.size());
        result.tool_call_id = "c" + std::to_string(i);
        history.push_back(result);
    }
    auto window = history_window(history, {.max_tokens = 700, .retain_newest = 2});
    ASSERT_LT(window.omitted, history.size());
    EXPECT_EQ(history[window.omitted].role, Role::user);
    EXPECT_GT(window.omitted, 0u);
    EXPECT_LE(window.estimated_tokens, 700);
    auto everything = history_window(history, {.max_tokens = 1000000, .retain_newest = 2});
    EXPECT_EQ(everything.omitted, 0u);
}

TEST(TextToolCalls, ReadsFencedCallsAndLeavesOtherBlocks) {
    std::string text = "Let me look.\n```json\n{\"tool\": \"fs__read\", \"arguments\": {\"path\": \"/a\"}}\n```\n"
                       "```js\nconsole.log(1)\n```";
    auto calls = extract_text_tool_calls(text);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].name, "fs__read");
    EXPECT_EQ(calls[0].arguments.at("path"), "/a");
    EXPECT_NE(text.find("console.log"), std::string::npos);
    EXPECT_EQ(text.find("fs__read"), std::string::npos);
}

std::vector<ChatMessage> tool_round() {
    std::vector<ChatMessage> history;
    history.push_back(message(Role::user, "weather?", 0));
    ChatMessage assistant = message(Role::assistant, "", 1);
    ToolCall call{"g1", "w__get", json::object{{"city", "Paris"}}, {}, json::object{{"thoughtSignature", "c2ln"}}};
    assistant.tool_calls.push_back(call);
    ToolCall second{"g2", "w__get", json::object{{"city", "Rome"}}, {}, {}};
    assistant.tool_calls.push_back(second);
    history.push_back(assistant);
    for (auto id : {"g1", "g2"}) {
        ChatMessage result = message(Role::tool, "18C", 2);
        result.tool_call_id = id;
        result.tool_name = "w__get";
        history.push_back(result);
    }
    return history;
}

TEST(GeminiRequest, RolesUserAndModelOnlyResultsInOneUserTurnSignaturesEchoed) {
    GeminiModel model({.provider = "gemini", .model = "m", .api_key = "k", .base_url = "http://x"});
    auto history = tool_round();
    ModelRequest request;
    request.history = history;
    request.tools = std::make_shared<std::vector<ToolDeclaration>>(std::vector<ToolDeclaration>{
        {"w__get", "Weather", json::parse(R"({"$schema":"https://json-schema.org/draft/2020-12/schema",
        "type":"object","properties":{"city":{"type":"string","x-extension":1}},"propertyNames":{"pattern":"^c"}})").as_object()}});
    json::object body = model.request_body(request);
    const auto& contents = body.at("contents").as_array();
    ASSERT_EQ(contents.size(), 3u);
    EXPECT_EQ(contents[0].at("role"), "user");
    EXPECT_EQ(contents[1].at("role"), "model");
    EXPECT_EQ(contents[1].at("parts").as_array()[0].at("thoughtSignature"), "c2ln");
    EXPECT_EQ(contents[1].at("parts").as_array().size(), 2u);
    EXPECT_EQ(contents[2].at("role"), "user");
    EXPECT_EQ(contents[2].at("parts").as_array().size(), 2u) << "both results in one user turn";
    EXPECT_EQ(contents[2].at("parts").as_array()[0].at("functionResponse").at("response").at("result"), "18C");
    const auto& schema = body.at("tools").as_array()[0].at("functionDeclarations").as_array()[0].at("parametersJsonSchema");
    EXPECT_FALSE(schema.as_object().contains("$schema"));
    EXPECT_FALSE(schema.as_object().contains("propertyNames"));
    EXPECT_FALSE(schema.at("properties").at("city").as_object().contains("x-extension"));
    // The serialized request, with the tools' part cached, says the same.
    EXPECT_EQ(json::parse(model.request_text(request)), json::value(body));
    EXPECT_EQ(json::parse(model.request_text(request)), json::value(body)) << "from the cache";
}

TEST(OpenAiRequest, ToolResultsAnswerTheirCallsAndArgumentsAreStrings) {
    OpenAiChatModel model({.provider = "openai", .model = "m", .api_key = "k", .base_url = "http://x/v1", .temperature = 0.7});
    auto history = tool_round();
    ModelRequest request;
    request.system_prompt = "be brief";
    request.history = history;
    json::object body = json::parse(model.request_text(request)).as_object();
    const auto& messages = body.at("messages").as_array();
    ASSERT_EQ(messages.size(), 5u);
    EXPECT_EQ(messages[0].at("role"), "system");
    EXPECT_TRUE(messages[2].at("content").is_null());
    EXPECT_EQ(messages[2].at("tool_calls").as_array()[0].at("function").at("arguments"), "{\"city\":\"Paris\"}");
    EXPECT_EQ(messages[3].at("tool_call_id"), "g1");
    EXPECT_EQ(messages[4].at("tool_call_id"), "g2");
    EXPECT_EQ(messages[4].at("content"), "18C");
    EXPECT_EQ(body.at("temperature"), 0.7) << "written as a number a person reads (not 7E-1)";
    EXPECT_EQ(body.at("stream_options").at("include_usage"), true);
    EXPECT_FALSE(body.contains("tools"));
    request.tools = std::make_shared<std::vector<ToolDeclaration>>(
        std::vector<ToolDeclaration>{{"w__get", "Weather", json::object{{"type", "object"}}}});
    std::string with_tools = model.request_text(request);
    json::object parsed = json::parse(with_tools).as_object();
    EXPECT_EQ(parsed.at("messages"), body.at("messages"));
    ASSERT_EQ(parsed.at("tools").as_array().size(), 1u);
    EXPECT_EQ(parsed.at("tools").at(0).at("function").at("name"), "w__get");
    EXPECT_EQ(parsed.at("tool_choice"), "auto");
    EXPECT_EQ(model.request_text(request), with_tools) << "from the cache";
}

}  // namespace
}  // namespace mcpkit::host
