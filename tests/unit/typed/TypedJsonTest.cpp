// Structs and enums described with Boost.Describe, to and from JSON, and their generated schemas.

#include "mcp/typed/TypedJson.hpp"

#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

namespace json = boost::json;

namespace weather {

BOOST_DEFINE_ENUM_CLASS(Units, celsius, fahrenheit)

struct Place {
    std::string city;
    std::optional<std::string> country;
};
BOOST_DESCRIBE_STRUCT(Place, (), (city, country))

struct ForecastArgs {
    Place place;
    int days = 3;
    Units units = Units::celsius;
    std::vector<std::string> fields;
    std::map<std::string, double> thresholds;
    std::uint8_t level = 0;
};
BOOST_DESCRIBE_STRUCT(ForecastArgs, (), (place, days, units, fields, thresholds, level))

inline void describe_fields(mcp::FieldDescriptions<ForecastArgs>& fields) {
    fields.field(&ForecastArgs::days, "Days ahead").minimum(1).maximum(16).optional();
    fields.field(&ForecastArgs::units).optional();
    fields.field(&ForecastArgs::fields).optional();
    fields.field(&ForecastArgs::thresholds).optional();
    fields.field(&ForecastArgs::level).optional();
}

}  // namespace weather

TEST(TypedJson, SchemaFollowsTheTypesRequiredFieldsAndDescriptions) {
    json::object schema = mcp::json_schema_of<weather::ForecastArgs>();
    EXPECT_EQ(schema.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
    EXPECT_EQ(schema.at("type"), "object");
    EXPECT_EQ(schema.at("additionalProperties"), false);
    EXPECT_EQ(schema.at("required"), json::parse(R"(["place"])"));
    const auto& properties = schema.at("properties").as_object();
    EXPECT_EQ(properties.at("place"),
              json::parse(R"({"type":"object","properties":{"city":{"type":"string"},"country":{"type":"string"}},
                              "required":["city"],"additionalProperties":false})"));
    EXPECT_EQ(properties.at("days"),
              json::parse(R"({"type":"integer","minimum":1,"maximum":16,"description":"Days ahead","default":3})"));
    EXPECT_EQ(properties.at("units"), json::parse(R"({"type":"string","enum":["celsius","fahrenheit"],"default":"celsius"})"));
    EXPECT_EQ(properties.at("fields"), json::parse(R"({"type":"array","items":{"type":"string"},"default":[]})"));
    EXPECT_EQ(properties.at("thresholds"),
              json::parse(R"({"type":"object","additionalProperties":{"type":"number"},"default":{}})"));
    EXPECT_EQ(properties.at("level"), json::parse(R"({"type":"integer","minimum":0,"maximum":255,"default":0})"));
}

TEST(TypedJson, ResultSchemasLeaveObjectsOpen) {
    json::object schema = mcp::json_schema_of<weather::Place>(false);
    EXPECT_FALSE(schema.contains("additionalProperties"));
}

TEST(TypedJson, ValuesRoundTrip) {
    weather::ForecastArgs args;
    args.place = {"Paris", "FR"};
    args.days = 5;
    args.units = weather::Units::fahrenheit;
    args.fields = {"wind", "rain"};
    args.thresholds = {{"wind", 12.5}};
    json::value value = mcp::to_json_value(args);
    EXPECT_EQ(value, json::parse(R"({"place":{"city":"Paris","country":"FR"},"days":5,"units":"fahrenheit",
                                    "fields":["wind","rain"],"thresholds":{"wind":12.5},"level":0})"));
    auto back = mcp::from_json_value<weather::ForecastArgs>(value);
    EXPECT_EQ(back.place.city, "Paris");
    EXPECT_EQ(back.place.country, "FR");
    EXPECT_EQ(back.days, 5);
    EXPECT_EQ(back.units, weather::Units::fahrenheit);
    EXPECT_EQ(back.fields, args.fields);
    EXPECT_EQ(back.thresholds, args.thresholds);
}

TEST(TypedJson, MissingOptionalFieldsKeepTheirDefaultsAndAbsentOptionalsStayEmpty) {
    auto args = mcp::from_json_value<weather::ForecastArgs>(json::parse(R"({"place":{"city":"Oslo"}})"));
    EXPECT_EQ(args.days, 3);
    EXPECT_EQ(args.units, weather::Units::celsius);
    EXPECT_FALSE(args.place.country.has_value());
    EXPECT_FALSE(mcp::to_json_value(args.place).as_object().contains("country"));
}

TEST(TypedJson, ErrorsNameTheFieldAndWhatItMustBe) {
    auto problem = [](std::string_view text) {
        try {
            mcp::from_json_value<weather::ForecastArgs>(json::parse(text));
        } catch (const mcp::JsonConversionError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(problem(R"({})"), "place: is required");
    EXPECT_EQ(problem(R"({"place":{}})"), "place.city: is required");
    EXPECT_EQ(problem(R"({"place":{"city":7}})"), "place.city: must be a string, not a number");
    EXPECT_EQ(problem(R"({"place":{"city":"x"},"days":2.5})"), "days: must be an integer, not a number");
    EXPECT_EQ(problem(R"({"place":{"city":"x"},"days":1e12})"), "days: must be an integer from -2147483648 to 2147483647");
    EXPECT_EQ(problem(R"({"place":{"city":"x"},"level":256})"), "level: must be an integer from 0 to 255");
    EXPECT_EQ(problem(R"({"place":{"city":"x"},"units":"kelvin"})"), "units: must be one of \"celsius\", \"fahrenheit\"");
    EXPECT_EQ(problem(R"({"place":{"city":"x"},"fields":["a",2]})"), "fields[1]: must be a string, not a number");
    EXPECT_EQ(problem(R"({"place":{"city":"x"},"thresholds":{"wind":"high"}})"),
              "thresholds.wind: must be a number, not a string");
    // 2020-12: a number with a zero fraction is an integer.
    EXPECT_EQ(problem(R"({"place":{"city":"x"},"days":2.0})"), "no error");
}
