// Kept-alive connections that the server closes on its own clock (Node after 5 s idle, gunicorn
// after 2): the next request must still be answered, by mcp::HttpClient and by the Streamable
// HTTP client transport; and a request the server may be working on is never sent twice.

#include "mcp/transport/HttpClient.hpp"
#include "mcp/transport/StreamableHttpClientTransport.hpp"

#include "TestSupport.hpp"
#include "mcp/jsonrpc/Codec.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <vector>

using namespace mcp;
using mcp::testing::run;
using mcp::testing::sleep_for;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

/// An HTTP/1.1 server that answers JSON-RPC requests with keep-alive, and then treats each
/// connection as the test says.
class IdleClosingServer {
public:
    enum class Behaviour {
        close_after_answer,   ///< answers, then closes: the client finds the connection closed
        close_second_unread,  ///< the second request on a connection is read, then closed on
        ignore_second,        ///< the second request on a connection is read and never answered
    };

    IdleClosingServer(asio::io_context& io, Behaviour behaviour)
        : acceptor_(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), behaviour_(behaviour) {
        asio::co_spawn(io, accept(), asio::detached);
    }

    std::string url() const { return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/mcp"; }
    int connections = 0;
    std::vector<std::string> bodies;   ///< every request's body, in order, on any connection
    std::vector<std::string> methods;  ///< and its method

private:
    asio::awaitable<void> accept() {
        for (;;) {
            auto [error, socket] = co_await acceptor_.async_accept(use_tuple);
            if (error) co_return;
            ++connections;
            asio::co_spawn(acceptor_.get_executor(), serve(std::move(socket)), asio::detached);
        }
    }

    asio::awaitable<void> serve(tcp::socket socket) {
        std::string buffer;
        for (int on_this_connection = 1;; ++on_this_connection) {
            auto [error, head_size] = co_await asio::async_read_until(socket, asio::dynamic_buffer(buffer), "\r\n\r\n", use_tuple);
            if (error) co_return;
            std::size_t length = 0;
            if (auto at = buffer.find("Content-Length: "); at != std::string::npos && at < head_size)
                length = std::stoul(buffer.substr(at + 16));
            if (buffer.size() < head_size + length) {
                std::size_t missing = head_size + length - buffer.size();
                auto [read_error, read] =
                    co_await asio::async_read(socket, asio::dynamic_buffer(buffer), asio::transfer_exactly(missing), use_tuple);
                if (read_error) co_return;
            }
            std::string body = buffer.substr(head_size, length);
            methods.push_back(buffer.substr(0, buffer.find(' ')));
            bodies.push_back(body);
            buffer.erase(0, head_size + length);
            if (on_this_connection == 2 && behaviour_ == Behaviour::close_second_unread) co_return;
            if (on_this_connection == 2 && behaviour_ == Behaviour::ignore_second) {
                asio::steady_timer forever(socket.get_executor(), std::chrono::seconds(30));
                co_await forever.async_wait(use_tuple);
                co_return;
            }
            std::string answer = answer_to(body);
            std::string response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s1\r\n"
                                   "Content-Length: " +
                                   std::to_string(answer.size()) + "\r\n\r\n" + answer;
            auto [write_error, written] = co_await asio::async_write(socket, asio::buffer(response), use_tuple);
            if (write_error || behaviour_ == Behaviour::close_after_answer) co_return;
        }
    }

    std::string answer_to(const std::string& body) const {
        boost::system::error_code ec;
        auto request = boost::json::parse(body, ec);
        boost::json::value id = nullptr;
        if (!ec && request.is_object())
            if (auto* found = request.as_object().if_contains("id")) id = *found;
        return boost::json::serialize(boost::json::object{
            {"jsonrpc", "2.0"}, {"id", id}, {"result", {{"request", static_cast<int>(bodies.size())}}}});
    }

    tcp::acceptor acceptor_;
    Behaviour behaviour_;
};

asio::awaitable<std::string> post(HttpClient& client, const std::string& url, std::string body) {
    HttpRequest request{"POST", url, {{"Content-Type", "application/json"}}, std::move(body)};
    auto response = co_await client.send(std::move(request));
    co_return response.body;
}

std::string ping(int id) { return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"ping"})"; }

/// Sends a ping through the transport and describes what answers it: `result {…}` with the result,
/// or `error …` with the message of the error the transport makes when the request failed.
asio::awaitable<std::string> ping_through(StreamableHttpClientTransport& transport, int id) {
    transport.send(ping(id));
    auto read = co_await transport.read();
    if (read.kind != jsonrpc::ChannelRead::Kind::decoded || read.decoded->is_batch) co_return "not one message";
    auto* message = std::get_if<jsonrpc::Message>(&read.decoded->single);
    auto* response = message ? std::get_if<jsonrpc::Response>(message) : nullptr;
    if (!response) co_return "not a response";
    if (response->id.to_display() != std::to_string(id)) co_return "the answer to " + response->id.to_display();
    if (response->error) co_return "error " + response->error->message;
    co_return "result " + boost::json::serialize(response->result);
}

}  // namespace

TEST(KeptAliveConnection, HttpClientOpensANewConnectionWhenTheServerClosedTheIdleOne) {
    asio::io_context io;
    IdleClosingServer server(io, IdleClosingServer::Behaviour::close_after_answer);
    HttpClient client(io.get_executor());
    run(io, [&]() -> asio::awaitable<void> {
        EXPECT_NE((co_await post(client, server.url(), ping(1))).find(R"("id":1)"), std::string::npos);
        co_await sleep_for(std::chrono::milliseconds(50));  // the server's close has reached us
        EXPECT_NE((co_await post(client, server.url(), ping(2))).find(R"("id":2)"), std::string::npos);
        // Seen closed before use: the second request went out once, on a new connection.
        EXPECT_EQ(server.connections, 2);
        EXPECT_EQ(server.bodies.size(), 2u);
    });
}

TEST(KeptAliveConnection, TransportOpensANewConnectionWhenTheServerClosedTheIdleOne) {
    asio::io_context io;
    IdleClosingServer server(io, IdleClosingServer::Behaviour::close_after_answer);
    auto transport = StreamableHttpClientTransport::create(io.get_executor(), {.url = server.url()});
    run(io, [&]() -> asio::awaitable<void> {
        EXPECT_EQ(co_await ping_through(*transport, 1), R"(result {"request":1})");
        co_await sleep_for(std::chrono::milliseconds(50));
        EXPECT_EQ(co_await ping_through(*transport, 2), R"(result {"request":2})");
        EXPECT_EQ(server.connections, 2);
        transport->close();
    });
}

TEST(KeptAliveConnection, TransportEndsTheSessionOnANewConnectionWhenTheIdleOneWasClosed) {
    // DELETE is a courtesy, never sent twice: it only arrives if a closed connection is seen before use.
    asio::io_context io;
    IdleClosingServer server(io, IdleClosingServer::Behaviour::close_after_answer);
    StreamableHttpClientOptions options{.url = server.url()};
    options.open_get_stream = false;
    auto transport = StreamableHttpClientTransport::create(io.get_executor(), options);
    run(io, [&]() -> asio::awaitable<void> {
        transport->send(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
        EXPECT_EQ((co_await transport->read()).kind, jsonrpc::ChannelRead::Kind::decoded);
        EXPECT_EQ(transport->session_id(), "s1");
        co_await sleep_for(std::chrono::milliseconds(50));
        co_await transport->shutdown();
        EXPECT_EQ(server.methods, (std::vector<std::string>{"POST", "DELETE"}));
        EXPECT_EQ(server.connections, 2);
    });
}

TEST(KeptAliveConnection, TransportSendsAgainWhenTheServerClosesAsTheRequestArrives) {
    // The race no check beforehand can see: the connection was open when the request left.
    asio::io_context io;
    IdleClosingServer server(io, IdleClosingServer::Behaviour::close_second_unread);
    auto transport = StreamableHttpClientTransport::create(io.get_executor(), {.url = server.url()});
    run(io, [&]() -> asio::awaitable<void> {
        EXPECT_EQ(co_await ping_through(*transport, 1), R"(result {"request":1})");
        EXPECT_EQ(co_await ping_through(*transport, 2), R"(result {"request":3})");
        EXPECT_EQ(server.connections, 2);
        EXPECT_EQ(server.bodies, (std::vector<std::string>{ping(1), ping(2), ping(2)}));
        transport->close();
    });
}

TEST(KeptAliveConnection, ARequestWithoutAnswerIsNotSentTwice) {
    // A timeout is not a closed connection: the server may be working on it.
    asio::io_context io;
    IdleClosingServer server(io, IdleClosingServer::Behaviour::ignore_second);
    StreamableHttpClientOptions options{.url = server.url()};
    options.http_timeout = std::chrono::milliseconds(300);
    auto transport = StreamableHttpClientTransport::create(io.get_executor(), options);
    HttpClient client(io.get_executor(), HttpClientOptions{.timeout = std::chrono::milliseconds(300)});
    run(io, [&]() -> asio::awaitable<void> {
        EXPECT_EQ(co_await ping_through(*transport, 1), R"(result {"request":1})");
        EXPECT_EQ(co_await ping_through(*transport, 2), "error Transport error: no answer from " + server.url());
        EXPECT_EQ(server.bodies, (std::vector<std::string>{ping(1), ping(2)}));
        transport->close();

        EXPECT_NE((co_await post(client, server.url(), ping(3))).find(R"("id":3)"), std::string::npos);
        bool failed = false;
        try {
            co_await post(client, server.url(), ping(4));
        } catch (const HttpError&) {
            failed = true;
        }
        EXPECT_TRUE(failed);
        EXPECT_EQ(server.bodies.back(), ping(4));
        EXPECT_EQ(server.bodies.size(), 4u);
    });
}
