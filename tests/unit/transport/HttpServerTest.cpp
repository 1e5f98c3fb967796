// mcp::HttpServer: an application's routes on libmcp's HTTP stack, with no MCP endpoint, and a
// route taking its connection over after the head (what a WebSocket and an event stream need).

#include <mcp/transport/HttpServer.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/time.h>

#include <thread>

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

/// A read that gets nothing for 30 s fails instead of hanging the test (a dropped answer would).
void limit_reads(tcp::socket& socket) {
    timeval limit{30, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
}

class TestRoutes : public mcp::HttpRoutes {
public:
    bool serves(std::string_view path) const override { return path != "/elsewhere"; }
    std::size_t max_body_bytes(std::string_view) const override { return 16; }
    void handle(mcp::HttpRouteRequest request, std::function<void(mcp::HttpRouteResponse)> respond) override {
        mcp::HttpRouteResponse response;
        if (request.path == "/hello") {
            response.body = "hi " + request.query;
            response.content_type = "text/plain";
        } else if (request.path == "/take") {
            // Answers the head, then echoes what came with the request, then its own end.
            response.status = 101;
            response.headers = {{"Upgrade", "echo"}, {"Connection", "Upgrade"}};
            response.take_over = [](mcp::TakenConnection taken) {
                std::string out = "early=[" + taken.early_bytes + "]";
                asio::write(taken.socket, asio::buffer(out));
                taken.socket.close();
            };
        } else if (request.path == "/throw") {
            throw std::runtime_error("boom");
        } else if (request.path == "/events") {
            response.headers = {{"Content-Type", "text/event-stream"}};
            response.take_over = [](mcp::TakenConnection taken) {
                asio::write(taken.socket, asio::buffer(std::string_view("data: one\n\n")));
                taken.socket.close();
            };
        } else {
            response.status = 404;
        }
        respond(std::move(response));
    }
};

class HttpServerTest : public testing::Test {
protected:
    asio::io_context io;
    std::unique_ptr<mcp::HttpServer> server;
    std::thread thread;

    void SetUp() override {
        // No idle limit to speak of: only stop() may close an idle connection here.
        server = std::make_unique<mcp::HttpServer>(
            io, mcp::HttpServerOptions{.routes = std::make_shared<TestRoutes>(), .connection_idle_timeout = std::chrono::hours(1)});
        server->start();
        thread = std::thread([this] { io.run(); });
    }
    void TearDown() override {
        server->stop([this] { io.stop(); });
        thread.join();
    }

    /// Sends `bytes` on a new connection and reads until the server closes it.
    std::string exchange(std::string_view bytes) {
        asio::io_context client;
        tcp::socket socket(client);
        socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server->port()));
        limit_reads(socket);
        asio::write(socket, asio::buffer(bytes));
        std::string answer;
        boost::system::error_code ec;
        asio::read(socket, asio::dynamic_buffer(answer), ec);
        return answer;
    }
};

TEST_F(HttpServerTest, RoutesAnswerAndEverythingElseIs404) {
    std::string answer = exchange("GET /hello?there HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(answer.substr(0, answer.find("\r\n")), "HTTP/1.1 200 OK");
    EXPECT_NE(answer.find("Content-Type: text/plain\r\n"), std::string::npos);
    EXPECT_TRUE(answer.ends_with("\r\n\r\nhi there")) << answer;
    answer = exchange("GET /elsewhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(answer.substr(0, answer.find("\r\n")), "HTTP/1.1 404 Not Found");
    EXPECT_NE(answer.find(R"({"error":"nothing at /elsewhere"})"), std::string::npos) << answer;
    answer = exchange("POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\nConnection: close\r\n\r\n"
                      "seventeen bytes!!");
    EXPECT_EQ(answer.substr(0, answer.find("\r\n")), "HTTP/1.1 413 Payload Too Large") << "the route's own limit";
}

TEST_F(HttpServerTest, ARouteTakesTheConnectionWithTheBytesThatCameEarly) {
    std::string answer = exchange("GET /take HTTP/1.1\r\nHost: x\r\n\r\nframe-bytes");
    EXPECT_EQ(answer, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n"
                      "early=[frame-bytes]")
        << "no Content-Length and no body of the server's own after the head";
}

TEST_F(HttpServerTest, AStreamedAnswerClosesTheConnectionWhenTheRouteDoes) {
    std::string answer = exchange("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(answer, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: one\n\n");
}

TEST_F(HttpServerTest, ARouteThatThrowsFailsItsRequestNotTheConnection) {
    std::string answer = exchange("GET /throw HTTP/1.1\r\nHost: x\r\n\r\nGET /hello?again HTTP/1.1\r\nHost: x\r\n"
                                  "Connection: close\r\n\r\n");
    EXPECT_EQ(answer.substr(0, answer.find("\r\n")), "HTTP/1.1 500 Internal Server Error");
    EXPECT_NE(answer.find(R"({"error":"the request failed: boom"})"), std::string::npos) << answer;
    EXPECT_TRUE(answer.ends_with("hi again")) << "the next request on the connection is served: " << answer;
}

TEST_F(HttpServerTest, StopClosesAnIdleKeptAliveConnection) {
    asio::io_context client;
    tcp::socket socket(client);
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server->port()));
    limit_reads(socket);
    asio::write(socket, asio::buffer(std::string_view("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")));
    std::string answer;
    boost::system::error_code ec;
    asio::read_until(socket, asio::dynamic_buffer(answer), "hi ", ec);
    ASSERT_FALSE(ec) << ec.message();
    server->stop([this] { io.stop(); });  // TearDown's stop() then finds it stopped
    // Without the close, this read would wait for the hour-long idle limit (and fail after 30 s).
    asio::read(socket, asio::dynamic_buffer(answer), ec);
    EXPECT_EQ(ec, asio::error::eof);
}

}  // namespace
