// mcp::HttpClient, libmcp's client for HTTP that is not MCP (OAuth endpoints, LLM APIs): one
// request, with redirects, https verification and proxies handled; the body read whole or, with
// --stream, piece by piece as it arrives (a server-sent event stream).
//
//   ./http_fetch https://example.com/
//   ./http_fetch --method POST --header 'Content-Type: application/json' --data '{"a":1}' URL
//   ./http_fetch --ca-file ca.pem --stream https://127.0.0.1:8443/events

#include <mcp/transport/HttpClient.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <iostream>
#include <string>

namespace asio = boost::asio;

int main(int argc, char** argv) {
    mcp::HttpClientOptions options;
    mcp::HttpRequest request;
    bool stream = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        bool has_value = i + 1 < argc;
        if (arg == "--ca-file" && has_value) options.ca_file = argv[++i];
        else if (arg == "--method" && has_value) request.method = argv[++i];
        else if (arg == "--data" && has_value) request.body = argv[++i];
        else if (arg == "--header" && has_value) {
            std::string header = argv[++i];
            auto colon = header.find(':');
            if (colon == std::string::npos) {
                std::cerr << "failed: --header wants 'Name: value'\n";
                return 2;
            }
            request.headers.emplace_back(header.substr(0, colon), header.substr(header.find_first_not_of(' ', colon + 1)));
        } else if (arg == "--stream") stream = true;
        else request.url = arg;
    }
    if (request.url.empty()) {
        std::cerr << "usage: http_fetch [--ca-file F] [--method M] [--header 'N: V'] [--data BODY] [--stream] URL\n";
        return 2;
    }

    asio::io_context io;
    int exit_code = 0;
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
        mcp::HttpClient http(io.get_executor(), options);
        try {
            mcp::HttpResponse response;
            if (stream) {
                response = co_await http.send_streaming(request, [](std::string_view piece) {
                    std::cout << "piece: " << piece.size() << " bytes\n" << piece << std::flush;
                });
            } else {
                response = co_await http.send(request);
            }
            // What answered, and how: the status, the URL after redirects, one header.
            std::cerr << "HTTP " << response.status << " " << response.reason << " from " << response.url
                      << " (Content-Type: " << response.header("content-type").value_or("none") << ")\n";
            std::cout << response.body;
        } catch (const std::exception& error) {  // mcp::HttpError: unreachable, refused, untrusted, timed out
            std::cerr << "failed: " << error.what() << '\n';
            exit_code = 1;
        }
    }, asio::detached);
    io.run();
    return exit_code;
}
