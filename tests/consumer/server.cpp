// A typed MCP tool over stdio: libmcp makes the input and output schemas from the structs, checks
// and parses each call's arguments, and answers with structured content.
#include <mcp/server/Server.hpp>
#include <mcp/typed/FieldDescriptions.hpp>

#include <boost/describe.hpp>

#include <string>

BOOST_DEFINE_ENUM_CLASS(Unit, metre, foot, mile)

struct ConvertArgs {
    double value = 0;
    Unit from = Unit::metre;
    Unit to = Unit::metre;
};
BOOST_DESCRIBE_STRUCT(ConvertArgs, (), (value, from, to))

inline void describe_fields(mcp::FieldDescriptions<ConvertArgs>& fields) {
    fields.field(&ConvertArgs::value, "The length to convert").minimum(0);
    fields.field(&ConvertArgs::from, "Its unit");
    fields.field(&ConvertArgs::to, "The unit wanted");
}

struct Conversion {
    double value = 0;
    std::string unit;
};
BOOST_DESCRIBE_STRUCT(Conversion, (), (value, unit))

double in_metres(Unit unit) {
    switch (unit) {
    case Unit::metre: return 1;
    case Unit::foot: return 0.3048;
    case Unit::mile: return 1609.344;
    }
    return 1;
}

int main() {
    mcp::Server server({.name = "unit-converter", .version = "1.0.0"});
    server.add_tool("convert", "Converts a length between metres, feet and miles", [](const ConvertArgs& args) {
        return Conversion{args.value * in_metres(args.from) / in_metres(args.to), boost::describe::enum_to_string(args.to, "?")};
    });
    return mcp::serve_stdio(server);
}
