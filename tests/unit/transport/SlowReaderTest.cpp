// A client that stops reading its event stream must not hold the server's memory or connection
// for ever: the stream is given up once too much waits for it, and a write that makes no progress
// closes the connection after connection_idle_timeout. The client here is a raw socket that posts
// a tool call and then reads nothing for a while.

#include "mcp/server/Server.hpp"
#include "mcp/transport/StreamableHttpServer.hpp"
#include "transport/http/ResponseStream.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <thread>
#include <vector>

using namespace mcp;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

/// A Server whose tool `flood` logs MIB messages of 1 MiB each, then waits up to 1 s (or until
/// cancelled) and answers "flood done", over Streamable HTTP on its own thread.
class FloodingServer {
public:
    explicit FloodingServer(std::chrono::seconds connection_idle_timeout) : server_(Implementation{"flood", "1.0.0"}) {
        server_.add_tool(Tool{.name = "flood", .input_schema = schema_object({{"mib", {{"type", "integer"}}}})},
                         [](ToolCall& call) {
                             std::string mebibyte(1u << 20, 'x');
                             for (std::int64_t i = 0; i < call.arguments.at("mib").as_int64(); ++i)
                                 call.log(LoggingLevel::info, mebibyte);
                             for (int i = 0; i < 10 && !call.cancelled(); ++i)
                                 std::this_thread::sleep_for(std::chrono::milliseconds(100));
                             return CallToolResult::text("flood done");
                         },
                         ToolOptions{.blocking = true});
        StreamableHttpServerOptions options;
        options.http_threads = 0;
        options.connection_idle_timeout = connection_idle_timeout;
        http_ = std::make_unique<StreamableHttpServer>(server_, io_, options);
        http_->start();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~FloodingServer() {
        http_->stop([this] { io_.stop(); });
        thread_.join();
    }
    std::uint16_t port() const { return http_->port(); }

private:
    asio::io_context io_;
    Server server_;
    std::unique_ptr<StreamableHttpServer> http_;
    std::thread thread_;
};

std::string post(std::string_view session, std::string_view body, bool close) {
    std::string request = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n";
    if (!session.empty()) request += "Mcp-Session-Id: " + std::string(session) + "\r\n";
    if (close) request += "Connection: close\r\n";
    request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
    return request;
}

/// Everything the server sends until it closes the connection.
std::string read_to_end(tcp::socket& socket) {
    std::string received;
    boost::system::error_code ec;
    asio::read(socket, asio::dynamic_buffer(received), ec);
    return received;
}

/// Opens a session with logging at info, and posts `flood` on a connection it returns unread (the
/// server closes it after the answer, so reading it to the end never waits for ever).
tcp::socket start_flood(asio::io_context& io, std::uint16_t port, int mib) {
    tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port);
    auto exchange = [&](std::string_view session, std::string_view body) {
        tcp::socket socket(io);
        socket.connect(endpoint);
        asio::write(socket, asio::buffer(post(session, body, true)));
        return read_to_end(socket);
    };
    std::string opened = exchange("", R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":)"
                                      R"("2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    auto at = opened.find("Mcp-Session-Id: ");
    EXPECT_NE(at, std::string::npos) << opened;
    std::string session = opened.substr(at + 16, opened.find("\r\n", at) - at - 16);
    exchange(session, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    exchange(session, R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}})");
    tcp::socket socket(io);
    socket.connect(endpoint);
    asio::write(socket, asio::buffer(post(session,
                                          R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"flood",)"
                                          R"("arguments":{"mib":)" + std::to_string(mib) + "}}}",
                                          true)));
    return socket;
}

}  // namespace

TEST(SlowReader, AWriteThatMakesNoProgressClosesTheConnection) {
    FloodingServer server(std::chrono::seconds(1));
    asio::io_context io;
    // 32 MiB is more than the socket buffers take, so the server's write stalls.
    tcp::socket socket = start_flood(io, server.port(), 32);
    std::this_thread::sleep_for(std::chrono::seconds(5));
    std::string received = read_to_end(socket);
    EXPECT_GT(received.size(), 0u);
    EXPECT_LT(received.size(), 32u << 20) << "the connection was closed before everything was written";
    EXPECT_EQ(received.find("flood done"), std::string::npos);
}

TEST(SlowReader, AClientThatReadsSlowlyIsNotCutOff) {
    FloodingServer server(std::chrono::seconds(2));
    asio::io_context io;
    tcp::socket socket = start_flood(io, server.port(), 12);
    // About 2 MB/s: the whole answer takes several times the idle limit, but bytes keep moving.
    std::string received;
    std::vector<char> buffer(64 * 1024);
    boost::system::error_code ec;
    while (!ec) {
        std::size_t n = socket.read_some(asio::buffer(buffer), ec);
        received.append(buffer.data(), n);
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
    }
    EXPECT_GT(received.size(), 12u << 20);
    EXPECT_NE(received.find("flood done"), std::string::npos) << "cut off after " << received.size() << " bytes";
}

TEST(SlowReader, AStreamWithTooMuchWaitingIsGivenUp) {
    // No idle limit to speak of: only the amount waiting can end this stream.
    FloodingServer server(std::chrono::seconds(3600));
    asio::io_context io;
    tcp::socket socket = start_flood(io, server.port(), 100);
    std::this_thread::sleep_for(std::chrono::seconds(3));
    std::string received = read_to_end(socket);
    EXPECT_GT(received.size(), 0u);
    EXPECT_LT(received.size(), 100u << 20) << "events past 64 MiB waiting were not kept";
    EXPECT_EQ(received.find("flood done"), std::string::npos);
}

TEST(SlowReader, OneLargeEventIsTakenAndAPileBehindItIsGivenUp) {
    // A single event is never refused on its own (its replay would be refused again, for ever);
    // what piles up behind unread bytes past the limit is.
    asio::io_context io;
    auto stream = std::make_shared<http::ResponseStream>(io.get_executor());
    stream->start_events();
    stream->push_event("1", std::string(http::ResponseStream::max_unsent_bytes + 1, 'x'));
    EXPECT_FALSE(stream->client_gone());
    stream->push_event("2", "one more");
    EXPECT_TRUE(stream->client_gone());
}
