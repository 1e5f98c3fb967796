// The protocol types: what to_json writes is what the spec names (camelCase, optional members
// omitted), and from_json reads it back to the same value.

#include "mcp/protocol/Implementation.hpp"
#include "mcp/protocol/Prompt.hpp"
#include "mcp/protocol/Resource.hpp"
#include "mcp/protocol/Tool.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

using namespace mcp;
namespace json = boost::json;

TEST(ProtocolRoundTrip, ToolKeepsEveryMemberAndOmitsWhatIsEmpty) {
    Tool tool{.name = "get_weather",
              .description = "Weather for a city",
              .input_schema = json::parse(R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})")
                                  .as_object(),
              .output_schema = json::parse(R"({"type":"object","properties":{"celsius":{"type":"number"}}})").as_object(),
              .title = "Weather",
              .annotations = {{"readOnlyHint", true}},
              .icons = {},
              .execution = {},
              .meta = {{"x", 1}}};
    json::object written = tool.to_json();
    EXPECT_EQ(written.at("inputSchema").at("required").as_array().size(), 1u);
    EXPECT_TRUE(written.contains("outputSchema"));
    EXPECT_EQ(written.at("annotations").at("readOnlyHint"), true);
    EXPECT_EQ(written.at("_meta").at("x"), 1);
    EXPECT_FALSE(written.contains("icons"));
    EXPECT_FALSE(written.contains("execution"));
    Tool read = Tool::from_json(written);
    EXPECT_EQ(json::serialize(read.to_json()), json::serialize(written));
    Tool bare{.name = "bare"};
    EXPECT_FALSE(bare.to_json().contains("outputSchema"));
    EXPECT_FALSE(bare.to_json().contains("annotations"));
}

// A listed tool without inputSchema takes no arguments; read back, it can be served again.
TEST(ProtocolRoundTrip, ToolWithoutInputSchemaReadsAsAnObjectSchema) {
    Tool read = Tool::from_json(json::parse(R"({"name":"ping","description":"Answers pong"})").as_object());
    EXPECT_EQ(json::serialize(read.input_schema), R"({"type":"object"})");
}

TEST(ProtocolRoundTrip, CallToolResultWithStructuredContentAndError) {
    CallToolResult result = CallToolResult::structured(json::parse(R"({"celsius":21.5})"));
    json::object written = result.to_json();
    EXPECT_EQ(written.at("structuredContent").at("celsius").as_double(), 21.5);
    ASSERT_EQ(written.at("content").as_array().size(), 1u);
    EXPECT_EQ(written.at("content").as_array()[0].at("type"), "text");
    EXPECT_FALSE(written.contains("isError"));
    CallToolResult read = CallToolResult::from_json(written);
    ASSERT_TRUE(read.structured_content);
    EXPECT_EQ(*read.structured_content, json::parse(R"({"celsius":21.5})"));
    EXPECT_FALSE(read.is_error);
    CallToolResult failed = CallToolResult::from_json(CallToolResult::error("no such city").to_json());
    EXPECT_TRUE(failed.is_error);
    EXPECT_EQ(failed.content[0].json.at("text"), "no such city");
    std::string appended;
    result.append_json(appended);
    EXPECT_EQ(json::parse(appended), json::value(written));
}

TEST(ProtocolRoundTrip, ResourcesTemplatesAndContents) {
    Resource resource{.uri = "file:///a.txt", .name = "a", .title = "A", .description = "the a file",
                      .mime_type = "text/plain", .size = 12};
    json::object written = resource.to_json();
    EXPECT_EQ(written.at("mimeType"), "text/plain");
    EXPECT_EQ(written.at("size"), 12);
    EXPECT_EQ(json::serialize(Resource::from_json(written).to_json()), json::serialize(written));
    ResourceTemplate templated{.uri_template = "test://{id}", .name = "by id"};
    EXPECT_EQ(templated.to_json().at("uriTemplate"), "test://{id}");
    EXPECT_EQ(ResourceTemplate::from_json(templated.to_json()).uri_template, "test://{id}");
    auto text = ResourceContents::from_json(ResourceContents::of_text("test://t", "text/plain", "hi").to_json());
    EXPECT_EQ(text.text, std::optional<std::string>("hi"));
    EXPECT_FALSE(text.blob);
    auto blob = ResourceContents::from_json(ResourceContents::of_blob("test://b", "image/png", "AAAA").to_json());
    EXPECT_EQ(blob.blob, std::optional<std::string>("AAAA"));
    EXPECT_FALSE(blob.text);
}

TEST(ProtocolRoundTrip, PromptsAndCompletions) {
    Prompt prompt{.name = "greet", .title = std::nullopt, .description = "Says hello",
                  .arguments = {PromptArgument{.name = "who", .description = "whom", .required = true},
                                PromptArgument{.name = "tone"}}};
    json::object written = prompt.to_json();
    ASSERT_EQ(written.at("arguments").as_array().size(), 2u);
    EXPECT_EQ(written.at("arguments").as_array()[0].at("required"), true);
    Prompt read = Prompt::from_json(written);
    ASSERT_EQ(read.arguments.size(), 2u);
    EXPECT_TRUE(read.arguments[0].required);
    EXPECT_FALSE(read.arguments[1].required);
    EXPECT_EQ(read.arguments[0].description, std::optional<std::string>("whom"));
    Completion completion{.values = {"a", "b"}, .total = 5, .has_more = true};
    json::object completed = completion.to_json();
    EXPECT_EQ(completed.at("completion").at("total"), 5);
    EXPECT_EQ(completed.at("completion").at("hasMore"), true);
}

TEST(ProtocolRoundTrip, ImplementationIsLenientAndComplete) {
    Implementation info{.name = "mcpkit", .version = "1.0", .title = "mcpkit", .website_url = "https://example.com"};
    json::object written = info.to_json();
    EXPECT_EQ(written.at("websiteUrl"), "https://example.com");
    Implementation read = Implementation::from_json(written);
    EXPECT_EQ(read.website_url, info.website_url);
    EXPECT_EQ(Implementation::from_json(json::object{}).name, "");
}
