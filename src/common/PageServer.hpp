#pragma once
// The HTTP/1.1 server under the pages the binaries serve (the chat host's, the review panel's):
// it listens, reads each request (bodies up to a limit, 60 s to send one), hands it to the
// application's route, writes the answer and keeps the connection for the next one. A route may
// instead take the connection over (a WebSocket, an event stream). Errors accepting (out of
// descriptors) pause the accept loop instead of ending it or spinning.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcpkit::common {

class PageServer {
public:
    using Request = boost::beast::http::request<boost::beast::http::string_body>;
    using Response = boost::beast::http::response<boost::beast::http::string_body>;
    using Stream = boost::beast::tcp_stream;
    /// The answer to a request, or nothing when the route is done with the connection: it took it
    /// over (a WebSocket moves the socket out) or served it to the end (an event stream); either
    /// way the server reads no more from it.
    using Route = std::function<boost::asio::awaitable<std::optional<Response>>(Request&, std::shared_ptr<Stream>)>;

    struct Options {
        std::size_t max_body_bytes = 64 * 1024;
        /// What the error says a bind failed for: "the panel page", "the chat page".
        std::string what = "the page";
    };

    PageServer(boost::asio::any_io_executor executor, Route route, Options options);
    ~PageServer();
    PageServer(const PageServer&) = delete;
    PageServer& operator=(const PageServer&) = delete;

    /// `host` (--http's) as an IP address; throws std::runtime_error saying what to write instead.
    static boost::asio::ip::address address_of(const std::string& host);
    /// Binds `address` and `port`, then serves; throws std::runtime_error saying why it cannot.
    void listen(const boost::asio::ip::address& address, std::uint16_t port);
    /// Stops accepting and closes every connection it still serves (taken ones are the route's).
    void stop();
    std::uint16_t port() const;

    struct State;

private:
    std::shared_ptr<State> state_;
};

/// An answer with the headers every page's answers carry: the type, no caching, no sniffing.
PageServer::Response page_reply(const PageServer::Request& request, boost::beast::http::status status,
                                std::string body, std::string_view type = "application/json");
/// {"error": message} as JSON.
PageServer::Response page_error(const PageServer::Request& request, boost::beast::http::status status,
                                const std::string& message);

}  // namespace mcpkit::common
