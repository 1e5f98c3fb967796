// The fast schema path must agree with the full validator (mcp::JsonSchema) on every schema it accepts.

#include "server/SchemaValidator.hpp"
#include "server/SimpleSchema.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

using mcp::detail::SchemaValidator;
using mcp::detail::SimpleSchema;
namespace json = boost::json;

TEST(SimpleSchema, AgreesWithValijsonOnItsSubset) {
    const char* schemas[] = {
        R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]})",
        R"({"type":"object","properties":{"n":{"type":"integer"},"x":{"type":"number","description":"d"}}})",
        R"({"type":"object","properties":{"v":{"type":["string","null"]},"b":{"type":"boolean"}},"additionalProperties":false})",
        R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"array"},"o":{"type":"object"}}})",
        R"({"type":"object"})",
    };
    const char* instances[] = {
        R"({})",
        R"({"text":"hi"})",
        R"({"text":5})",
        R"({"n":1,"x":2.5})",
        R"({"n":1.0})",
        R"({"n":1.5})",
        R"({"x":"no"})",
        R"({"v":null,"b":true})",
        R"({"v":3})",
        R"({"extra":1})",
        R"({"a":[1],"o":{}})",
        R"({"a":{},"o":[]})",
        R"([])",
        R"("text")",
    };
    for (const char* schema_text : schemas) {
        json::object schema = json::parse(schema_text).as_object();
        ASSERT_TRUE(SimpleSchema::compile(schema)) << schema_text;
        SchemaValidator fast(schema, true);
        SchemaValidator reference(schema, false);
        for (const char* instance_text : instances) {
            json::value instance = json::parse(instance_text);
            auto fast_verdict = fast.validate(instance);
            auto reference_verdict = reference.validate(instance);
            EXPECT_EQ(fast_verdict.has_value(), reference_verdict.has_value())
                << schema_text << " on " << instance_text << ": fast says " << fast_verdict.value_or("valid")
                << ", the full validator says " << reference_verdict.value_or("valid");
        }
    }
}

TEST(SimpleSchema, DeclinesSchemasOutsideItsSubset) {
    for (const char* text : {R"({"type":"object","properties":{"s":{"type":"string","minLength":1}}})",
                             R"({"type":"object","properties":{"e":{"enum":["a"]}}})",
                             R"({"type":"object","$defs":{},"properties":{}})",
                             R"({"type":"object","additionalProperties":{"type":"string"}})",
                             R"({"type":"array"})"}) {
        EXPECT_FALSE(SimpleSchema::compile(json::parse(text).as_object())) << text;
    }
}

TEST(SimpleSchema, NamesTheField) {
    auto schema = SimpleSchema::compile(
        json::parse(R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]})").as_object());
    ASSERT_TRUE(schema);
    EXPECT_EQ(schema->validate(json::parse(R"({"text":1})")), "/text: expected string, got integer");
    EXPECT_EQ(schema->validate(json::parse(R"({})")), "/text: missing required property \"text\"");
}
