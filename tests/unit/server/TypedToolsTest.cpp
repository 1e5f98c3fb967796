// Typed tools and prompts on the server, typed calls on the client: schemas generated from the
// structs, arguments parsed before the handler runs, results as structuredContent.

#include "ServerClientFixture.hpp"

#include <boost/describe.hpp>
#include <boost/json/parse.hpp>

using namespace mcp;
using namespace mcp::testing;
namespace asio = boost::asio;
namespace json = boost::json;

namespace typed_test {

BOOST_DEFINE_ENUM_CLASS(Units, celsius, fahrenheit)

struct WeatherArgs {
    std::string city;
    Units units = Units::celsius;
    int days = 1;
};
BOOST_DESCRIBE_STRUCT(WeatherArgs, (), (city, units, days))

inline void describe_fields(FieldDescriptions<WeatherArgs>& fields) {
    fields.field(&WeatherArgs::city, "City name").min_length(1);
    fields.field(&WeatherArgs::units, "Temperature units").optional();
    fields.field(&WeatherArgs::days, "Days ahead").minimum(1).maximum(7).optional();
}

struct WeatherReport {
    std::string city;
    double temperature = 0;
    Units units = Units::celsius;
    std::vector<std::string> days;
};
BOOST_DESCRIBE_STRUCT(WeatherReport, (), (city, temperature, units, days))

WeatherReport forecast(const WeatherArgs& args) {
    WeatherReport report{args.city, args.units == Units::celsius ? 21.5 : 70.7, args.units, {}};
    for (int day = 1; day <= args.days; ++day) report.days.push_back("day " + std::to_string(day));
    return report;
}

struct GreetingArgs {
    std::string name;
    std::optional<std::string> language;
    int times = 1;
};
BOOST_DESCRIBE_STRUCT(GreetingArgs, (), (name, language, times))

inline void describe_fields(FieldDescriptions<GreetingArgs>& fields) {
    fields.field(&GreetingArgs::name, "Who to greet");
    fields.field(&GreetingArgs::times).optional();
}

}  // namespace typed_test

using namespace typed_test;

namespace {
std::string first_text(const CallToolResult& result) {
    return result.content.empty() ? std::string() : std::string(result.content[0].json.at("text").as_string());
}
}  // namespace

TEST(TypedTools, ATypedToolAdvertisesGeneratedSchemasAndAnswersWithStructuredContent) {
    ServerClientFixture f;
    f.server.add_tool("get_weather", "Weather of a city", forecast);
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        auto tools = co_await client.list_tools();
        CO_ASSERT_EQ(tools.size(), 1u);
        EXPECT_EQ(tools[0].input_schema, json_schema_of<WeatherArgs>(true));
        CO_ASSERT_TRUE(tools[0].output_schema.has_value());
        EXPECT_EQ(*tools[0].output_schema, json_schema_of<WeatherReport>(false));

        WeatherArgs paris{"Paris", Units::fahrenheit, 2};
        WeatherReport report = co_await client.call_tool<WeatherReport>("get_weather", paris);
        EXPECT_EQ(report.city, "Paris");
        EXPECT_EQ(report.temperature, 70.7);
        EXPECT_EQ(report.units, Units::fahrenheit);
        EXPECT_EQ(report.days, (std::vector<std::string>{"day 1", "day 2"}));

        // The raw result: structuredContent plus its JSON text for clients that read text.
        json::object arguments{{"city", "Oslo"}};
        CallToolResult raw = co_await client.call_tool("get_weather", arguments);
        EXPECT_FALSE(raw.is_error);
        CO_ASSERT_TRUE(raw.structured_content.has_value());
        EXPECT_EQ(*raw.structured_content, json::parse(R"({"city":"Oslo","temperature":21.5,"units":"celsius","days":["day 1"]})"));
        EXPECT_EQ(json::parse(first_text(raw)), *raw.structured_content);
    });
}

TEST(TypedTools, BadArgumentsNeverReachTheHandlerAndTheErrorNamesTheField) {
    ServerClientFixture f;
    int calls = 0;
    f.server.add_tool("get_weather", "Weather of a city", [&](const WeatherArgs& args) {
        ++calls;
        return forecast(args);
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        auto problem = [&](json::object arguments) -> asio::awaitable<std::string> {
            CallToolResult result = co_await client.call_tool("get_weather", arguments);
            EXPECT_TRUE(result.is_error);
            co_return first_text(result);
        };
        // Arguments are built outside co_await expressions (g++ 12 bug).
        json::object none, wrong_enum{{"city", "Paris"}, {"units", "kelvin"}}, too_many_days{{"city", "Paris"}, {"days", 30}},
            misspelt{{"city", "Paris"}, {"cty", "Lyon"}}, empty_city{{"city", ""}};
        std::string text = co_await problem(none);
        EXPECT_NE(text.find("city"), std::string::npos) << text;
        text = co_await problem(wrong_enum);
        EXPECT_NE(text.find("units"), std::string::npos) << text;
        text = co_await problem(too_many_days);
        EXPECT_NE(text.find("days"), std::string::npos) << text;
        text = co_await problem(misspelt);
        EXPECT_NE(text.find("cty"), std::string::npos) << text;
        EXPECT_EQ(calls, 0);
        try {
            co_await client.call_tool<WeatherReport>("get_weather", empty_city);
            ADD_FAILURE() << "an isError result did not throw";
        } catch (const ToolError& e) {
            EXPECT_NE(std::string(e.what()).find("city"), std::string::npos) << e.what();
            EXPECT_TRUE(e.result().is_error);
        }
    });
}

TEST(TypedTools, CoroutineBlockingAndContextTakingHandlersWorkTyped) {
    ServerClientFixture f;
    f.server.add_tool("coroutine", "Awaits, then answers",
                      [](const WeatherArgs& args) -> asio::awaitable<WeatherReport> { co_return forecast(args); });
    f.server.add_tool("blocking", "Runs on the worker pool", [](const WeatherArgs& args) { return forecast(args); },
                      ToolOptions{.blocking = true});
    f.server.add_tool("with_context", "Reads its context", [](const WeatherArgs& args, ToolCall& call) {
        return "called " + call.name + " for " + args.city;
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        WeatherArgs rome{"Rome"}, lima{"Lima"}, kyiv{"Kyiv"};
        WeatherReport a = co_await client.call_tool<WeatherReport>("coroutine", rome);
        EXPECT_EQ(a.city, "Rome");
        WeatherReport b = co_await client.call_tool<WeatherReport>("blocking", lima);
        EXPECT_EQ(b.city, "Lima");
        CallToolResult c = co_await client.call_tool("with_context", kyiv);
        EXPECT_EQ(first_text(c), "called with_context for Kyiv");
        auto tools = co_await client.list_tools();
        for (const auto& tool : tools)
            EXPECT_EQ(tool.output_schema.has_value(), tool.name != "with_context") << tool.name;
    });
}

TEST(TypedTools, ATypedResultThatDoesNotFitTheClientTypeNamesTheField) {
    ServerClientFixture f;
    f.server.add_tool(Tool{.name = "raw"}, [](ToolCall&) {
        return CallToolResult::structured(json::parse(R"({"city":"Paris","temperature":"warm"})"));
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        json::object none;
        try {
            co_await client.call_tool<WeatherReport>("raw", none);
            ADD_FAILURE() << "a result of the wrong shape was accepted";
        } catch (const JsonConversionError& e) {
            EXPECT_EQ(std::string(e.what()), "temperature: must be a number, not a string");
        }
    });
}

TEST(TypedPrompts, ATypedPromptListsItsArgumentsAndReadsThemFromStrings) {
    ServerClientFixture f;
    f.server.add_prompt("greet", "Greets someone", [](const GreetingArgs& args) {
        std::string text;
        for (int i = 0; i < args.times; ++i) text += (args.language == "fr" ? "Bonjour " : "Hello ") + args.name + "! ";
        return text;
    });
    f.with_client({}, [&](Client& client) -> asio::awaitable<void> {
        auto prompts = co_await client.list_prompts();
        CO_ASSERT_EQ(prompts.size(), 1u);
        const auto& arguments = prompts[0].arguments;
        CO_ASSERT_EQ(arguments.size(), 3u);
        EXPECT_EQ(arguments[0].name, "name");
        EXPECT_TRUE(arguments[0].required);
        EXPECT_EQ(arguments[0].description, "Who to greet");
        EXPECT_EQ(arguments[1].name, "language");
        EXPECT_FALSE(arguments[1].required);
        EXPECT_FALSE(arguments[2].required);

        GreetingArgs ada{"Ada", "fr", 2};
        GetPromptResult result = co_await client.get_prompt("greet", ada);
        CO_ASSERT_EQ(result.messages.size(), 1u);
        EXPECT_EQ(result.messages[0].role, "user");
        EXPECT_EQ(result.messages[0].content.json.at("text"), "Bonjour Ada! Bonjour Ada! ");

        try {
            json::object bad{{"name", "Ada"}, {"times", "often"}};
            co_await client.get_prompt("greet", bad);
            ADD_FAILURE() << "a prompt argument of the wrong type was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), jsonrpc::error_code::invalid_params);
            EXPECT_NE(std::string(e.what()).find("times"), std::string::npos) << e.what();
        }
    });
}
