// HttpClientOptions::allow_address: a request made on someone else's behalf reaches only the
// addresses the caller allows, whether the URL names the address, names a host that resolves to
// it, or redirects to it.

#include "mcp/transport/HttpClient.hpp"

#include "TestSupport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include <string>

using namespace mcp;
using mcp::testing::run;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

/// Answers every request on `address` with `answer` (a whole response) and counts them.
class CannedServer {
public:
    CannedServer(asio::io_context& io, const std::string& address)
        : acceptor_(io, tcp::endpoint(asio::ip::make_address(address), 0)) {
        asio::co_spawn(io, accept(), asio::detached);
    }
    std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
    std::string answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
    int requests = 0;

private:
    asio::awaitable<void> accept() {
        for (;;) {
            auto [error, socket] = co_await acceptor_.async_accept(use_tuple);
            if (error) co_return;
            std::string buffer;
            auto [read_error, size] = co_await asio::async_read_until(socket, asio::dynamic_buffer(buffer), "\r\n\r\n", use_tuple);
            if (read_error) continue;
            ++requests;
            co_await asio::async_write(socket, asio::buffer(answer), use_tuple);
        }
    }
    tcp::acceptor acceptor_;
};

bool loopback(const asio::ip::address& address) { return address.is_loopback(); }

}  // namespace

TEST(HttpClientAllowedAddresses, RefusedAddressesAreNotConnectedToByAddressNameOrRedirect) {
    asio::io_context io;
    CannedServer target(io, "127.0.0.2");  // the address the filter refuses
    CannedServer redirecting(io, "127.0.0.1");
    redirecting.answer = "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:" + std::to_string(target.port()) +
                         "/inside\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    auto not_two = [](const asio::ip::address& address) { return address.to_string() != "127.0.0.2"; };
    run(io, [&]() -> asio::awaitable<void> {
        auto executor = co_await asio::this_coro::executor;
        HttpRequest request;
        request.url = "http://127.0.0.1:" + std::to_string(redirecting.port()) + "/";
        {
            // Without a filter the redirect is followed to the second server.
            HttpClient open(executor, HttpClientOptions{});
            HttpResponse response = co_await open.send(request);
            EXPECT_EQ(response.status, 200);
            EXPECT_EQ(target.requests, 1);
        }
        HttpClientOptions options;
        options.allow_address = not_two;
        options.proxy = std::string();
        HttpClient guarded(executor, options);
        std::string refusal;
        try {
            co_await guarded.send(request);
        } catch (const HttpError& error) {
            refusal = error.what();
        }
        EXPECT_NE(refusal.find("not allowed"), std::string::npos) << refusal;
        EXPECT_NE(refusal.find("127.0.0.2"), std::string::npos) << refusal;
        EXPECT_EQ(redirecting.requests, 2);
        EXPECT_EQ(target.requests, 1);  // the redirect was not followed there

        // A name that resolves to refused addresses only ("localhost": loopback, however written).
        HttpClientOptions no_loopback;
        no_loopback.allow_address = [](const asio::ip::address& address) { return !loopback(address); };
        no_loopback.proxy = std::string();
        HttpClient strict(executor, no_loopback);
        HttpRequest by_name;
        by_name.url = "http://localhost:" + std::to_string(redirecting.port()) + "/";
        refusal.clear();
        try {
            co_await strict.send(by_name);
        } catch (const HttpError& error) {
            refusal = error.what();
        }
        EXPECT_NE(refusal.find("not allowed"), std::string::npos) << refusal;
        EXPECT_EQ(redirecting.requests, 2);
    });
}
