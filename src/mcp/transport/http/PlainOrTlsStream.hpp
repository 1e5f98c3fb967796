#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// One HTTP connection, plain TCP or TLS over TCP, for the client (ClientStream) and the server
// (ServerStream). Reads and writes run on whichever it is; socket-level work (timeouts, options,
// closing, waiting for the peer) goes to the TCP layer underneath.

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <utility>
#include <variant>

namespace mcp::http {

template <class PlainStream, class SecureStream>
class PlainOrTlsStream {
public:
    using Plain = PlainStream;
    using Secure = SecureStream;

    explicit PlainOrTlsStream(Plain plain) : stream_(std::in_place_index<0>, std::move(plain)) {}
    explicit PlainOrTlsStream(Secure secure) : stream_(std::in_place_index<1>, std::move(secure)) {}

    /// The TCP layer underneath.
    Plain& lowest() {
        if (auto* plain = std::get_if<0>(&stream_)) return *plain;
        return boost::beast::get_lowest_layer(std::get<1>(stream_));
    }
    /// The plain stream, or null over TLS.
    Plain* plain() { return std::get_if<0>(&stream_); }
    /// Runs `operation` on the stream as it is: `with([&](auto& s) { return http::async_write(s, …); })`.
    template <class Operation>
    decltype(auto) with(Operation&& operation) {
        return std::visit(std::forward<Operation>(operation), stream_);
    }

private:
    std::variant<Plain, Secure> stream_;
};

using ClientStream = PlainOrTlsStream<boost::beast::tcp_stream, boost::beast::ssl_stream<boost::beast::tcp_stream>>;
using ServerStream =
    PlainOrTlsStream<boost::asio::ip::tcp::socket, boost::asio::ssl::stream<boost::asio::ip::tcp::socket>>;

}  // namespace mcp::http
