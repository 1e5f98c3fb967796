#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// HTTP/1.1 client plumbing for the Streamable HTTP client: parsed endpoint URLs (http and https),
// a small keep-alive pool of connections to one server (direct or through a proxy's tunnel, plain
// or TLS), and one exchange (request out, head in, body read in pieces as it arrives, which SSE
// needs).

#include "transport/http/PlainOrTlsStream.hpp"
#include "transport/http/ProxyTunnel.hpp"
#include "mcp/transport/SseParser.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp::http {

struct HttpUrl {
    bool tls = false;    ///< https
    std::string host;    ///< as written (brackets removed for IPv6)
    std::string port;
    std::string target;  ///< path and query, at least "/"
    std::string host_header;
};

/// Parses an http:// or https:// URL; throws std::invalid_argument naming what is wrong.
HttpUrl parse_http_url(std::string_view url);
/// Resolves `reference` (absolute or relative, as an SSE `endpoint` event sends it) against `base`;
/// nothing if it points at another origin.
std::optional<HttpUrl> resolve_same_origin(const HttpUrl& base, std::string_view reference);

/// "HTTP 403 Forbidden: Access is only allowed at localhost:8931": the status, and what the server
/// said in its body (often the only explanation), on one line and bounded.
std::string describe_status(int status, std::string_view reason, const std::optional<std::string>& body);

/// One request/response on a connection from the pool.
class HttpExchange {
public:
    HttpExchange(std::shared_ptr<ClientStream> stream);

    /// Writes the request and reads the response head. False on a network error or timeout.
    boost::asio::awaitable<bool> start(boost::beast::http::request<boost::beast::http::string_body>& request,
                                       std::chrono::milliseconds timeout);
    const boost::beast::http::response_parser<boost::beast::http::buffer_body>::value_type& head() const {
        return parser_.get();
    }
    /// Reads the body as it arrives; `on_data` gets each piece. False if the connection broke.
    boost::asio::awaitable<bool> read_body(const std::function<void(std::string_view)>& on_data);
    /// Reads an SSE body to its end (or until the connection breaks), handing each event to
    /// `on_event`. Returns why the stream was dropped when an event outgrew the parser's limit
    /// (std::length_error), else "".
    boost::asio::awaitable<std::string> read_events(SseParser& parser, const std::function<void(SseEvent&)>& on_event);
    /// The whole body (for JSON answers), up to `limit` bytes.
    boost::asio::awaitable<std::optional<std::string>> read_all(std::size_t limit);
    bool reusable() const { return done_ && parser_.keep_alive(); }
    /// start() failed because the server closed the connection before a byte of answer came (not a
    /// timeout): on a kept-alive connection, the request never reached it and may be sent again.
    bool closed_unanswered() const { return closed_unanswered_; }
    /// The answer has no body whatever its head says (the answer to HEAD).
    void expect_no_body() { parser_.skip(true); }
    /// read_body() gives up when nothing arrives for `limit` (zero: it waits as long as it takes).
    void limit_silence(std::chrono::milliseconds limit) { silence_limit_ = limit; }
    /// read_body() gave up because of that silence.
    bool went_silent() const { return went_silent_; }
    std::shared_ptr<ClientStream> stream() const { return stream_; }

private:
    std::shared_ptr<ClientStream> stream_;
    boost::beast::flat_buffer buffer_;
    boost::beast::http::response_parser<boost::beast::http::buffer_body> parser_;
    bool done_ = false;
    bool closed_unanswered_ = false;
    std::chrono::milliseconds silence_limit_{0};
    bool went_silent_ = false;
};

/// How the client reaches servers: which certificate authorities it trusts, and which proxy.
struct ClientConnectionSettings {
    /// PEM file of the certificate authorities to trust for https; empty: the system's.
    std::string ca_file;
    /// "http://[user:password@]host:port", or "" for none; nothing: HTTPS_PROXY/HTTP_PROXY/NO_PROXY.
    std::optional<std::string> proxy;
    /// Asked before connecting to each resolved address; null: any (HttpClientOptions::allow_address).
    std::function<bool(const boost::asio::ip::address&)> allow_address;
};

/// Keep-alive connections to one host and port, opened on demand.
class ConnectionPool {
public:
    /// Throws std::invalid_argument for an unusable CA file or proxy.
    ConnectionPool(boost::asio::any_io_executor executor, HttpUrl url, const ClientConnectionSettings& settings = {});
    /// An idle connection or a new one; null if the server cannot be reached (last_error() says why).
    /// `reused` (if given) tells which: a request on a kept-alive connection that gets no answer
    /// may be sent again on a new one, as the server may have closed it just then.
    boost::asio::awaitable<std::shared_ptr<ClientStream>> acquire(std::chrono::milliseconds timeout,
                                                                  bool* reused = nullptr);
    void release(std::shared_ptr<ClientStream> stream);
    /// Closes every connection, idle or in use (streams in progress end with an error).
    void close_all();
    /// Why the last acquire() failed: the name did not resolve, the connection was refused, the
    /// proxy refused, the certificate was not trusted, …
    const std::string& last_error() const { return last_error_; }

private:
    boost::asio::awaitable<std::shared_ptr<ClientStream>> connect(std::chrono::milliseconds timeout);

    boost::asio::any_io_executor executor_;
    HttpUrl url_;
    std::optional<ProxyRoute> proxy_;
    std::shared_ptr<boost::asio::ssl::context> tls_;
    std::vector<boost::asio::ip::tcp::endpoint> endpoints_;
    std::function<bool(const boost::asio::ip::address&)> allow_address_;
    std::vector<std::shared_ptr<ClientStream>> idle_;
    std::vector<std::weak_ptr<ClientStream>> all_;
    std::string last_error_;
};

}  // namespace mcp::http
