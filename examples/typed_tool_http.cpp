// A typed tool served over Streamable HTTP, and a typed client calling it. The tool's arguments and
// result are plain structs described with Boost.Describe: libmcp generates the input and output
// schemas from them, validates and parses the arguments before the handler runs, and returns the
// result as structuredContent (with its JSON text for clients that read text).
//
//   ./typed_tool_http                 # serves on a free port, calls itself through HTTP, exits
//   ./typed_tool_http --serve 3000    # serves on http://127.0.0.1:3000/mcp until Ctrl-C
//   mcpkit client --url http://127.0.0.1:3000/mcp call get_forecast '{"city":"Paris","days":2}'

#include <mcp/client/Client.hpp>
#include <mcp/server/Server.hpp>
#include <mcp/transport/StreamableHttpClientTransport.hpp>
#include <mcp/transport/StreamableHttpServer.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/describe.hpp>

#include <iostream>
#include <string>

namespace forecast {

BOOST_DEFINE_ENUM_CLASS(Units, celsius, fahrenheit)  // a string enum in the schema

struct ForecastArgs {
    std::string city;
    int days = 1;
    Units units = Units::celsius;
};
BOOST_DESCRIBE_STRUCT(ForecastArgs, (), (city, days, units))

// Descriptions and limits go into the generated schema; optional() fields keep their defaults.
inline void describe_fields(mcp::FieldDescriptions<ForecastArgs>& fields) {
    fields.field(&ForecastArgs::city, "City name, e.g. \"Paris\"").min_length(1);
    fields.field(&ForecastArgs::days, "Days ahead").minimum(1).maximum(7).optional();
    fields.field(&ForecastArgs::units, "Temperature units").optional();
}

struct Day {
    int day = 0;
    double high = 0;
    double low = 0;
};
BOOST_DESCRIBE_STRUCT(Day, (), (day, high, low))

struct Forecast {
    std::string city;
    Units units = Units::celsius;
    std::vector<Day> days;
};
BOOST_DESCRIBE_STRUCT(Forecast, (), (city, units, days))

Forecast make_forecast(const ForecastArgs& args) {
    Forecast result{args.city, args.units, {}};
    for (int day = 1; day <= args.days; ++day) {
        // A made-up but deterministic forecast: the point is the types, not the weather.
        double high = 18.0 + static_cast<double>((args.city.size() * 3 + static_cast<std::size_t>(day)) % 9);
        if (args.units == Units::fahrenheit) high = high * 9 / 5 + 32;
        result.days.push_back(Day{day, high, high - 8});
    }
    return result;
}

}  // namespace forecast

namespace asio = boost::asio;

// The client half: one typed call, and one with a bad argument to show the error naming the field.
asio::awaitable<void> call_it(std::uint16_t port, int& exit_code) {
    // (Built before the call: g++ 12 destroys temporaries twice in an expression that holds a
    // co_await and a braced initializer.)
    auto executor = co_await asio::this_coro::executor;
    mcp::StreamableHttpClientOptions options{.url = "http://127.0.0.1:" + std::to_string(port) + "/mcp"};
    auto transport = mcp::StreamableHttpClientTransport::create(executor, std::move(options));
    mcp::Client client({.info = {"typed-example-client", "1.0.0"}});
    try {
        co_await client.connect(transport);
        forecast::ForecastArgs args{"Paris", 3, forecast::Units::celsius};
        forecast::Forecast result = co_await client.call_tool<forecast::Forecast>("get_forecast", args);
        std::cout << "forecast for " << result.city << ":";
        for (const auto& day : result.days) std::cout << " day " << day.day << " " << day.low << ".." << day.high;
        std::cout << '\n';

        forecast::ForecastArgs too_far{"Paris", 30, forecast::Units::celsius};
        try {
            co_await client.call_tool<forecast::Forecast>("get_forecast", too_far);
            std::cout << "failed: 30 days ahead was accepted\n";
            exit_code = 1;
        } catch (const mcp::ToolError& error) {
            std::cout << "refused as expected: " << error.what() << '\n';
        }
    } catch (const std::exception& error) {
        std::cout << "failed: " << error.what() << '\n';
        exit_code = 1;
    }
    co_await transport->shutdown();
}

int main(int argc, char** argv) {
    mcp::Server server({.name = "typed-forecast", .version = "1.0.0"});
    server.add_tool("get_forecast", "Daily highs and lows for a city", forecast::make_forecast);

    asio::io_context io;
    if (argc == 3 && std::string(argv[1]) == "--serve")
        return mcp::serve_http(server, io, {.port = static_cast<std::uint16_t>(std::stoi(argv[2]))});

    mcp::StreamableHttpServer http(server, io);
    http.start();  // port 0: any free port
    int exit_code = 0;
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
        co_await call_it(http.port(), exit_code);
        http.stop();
    }, asio::detached);
    io.run();
    return exit_code;
}
