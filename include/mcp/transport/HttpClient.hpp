#pragma once
// A small HTTP/1.1 client for what is not MCP: OAuth discovery and token endpoints, LLM APIs.
// It shares the Streamable HTTP client's plumbing: http and https (TLS 1.2+, servers verified),
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY and CONNECT tunnels, keep-alive connections per origin.
//
//   mcp::HttpClient http(executor);
//   mcp::HttpResponse response = co_await http.send({.method = "GET", .url = "https://example.com/"});
//
// Failures to reach the server (name, connection, proxy, certificate, timeout) throw HttpError
// saying which; any HTTP status is a response. GET and HEAD follow redirects (and a 303 after any
// method becomes a GET), up to max_redirects.

#include "mcp/Export.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/address.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

/// Trust, proxy, timeouts and limits of an HttpClient.
struct MCP_API HttpClientOptions {
    /// https: a PEM file of the certificate authorities to trust instead of the system's.
    std::string ca_file;
    /// "http://[user:password@]host:port", or "" for none; unset: HTTPS_PROXY / HTTP_PROXY / NO_PROXY.
    std::optional<std::string> proxy;
    /// Connecting, and waiting for the response head.
    std::chrono::milliseconds timeout{std::chrono::seconds(30)};
    /// Reading the body: the longest silence before the answer counts as broken off (an HttpError
    /// that says so). Zero: no limit, however quiet the server (the default).
    std::chrono::milliseconds idle_timeout{0};
    /// A larger body (send(), not send_streaming()) is an HttpError.
    std::size_t max_body_bytes = 16u << 20;
    int max_redirects = 5;  ///< Redirects followed at most (GET and HEAD, and any method after a 303).
    /// Asked about every address a connection is about to be opened to: each one a name resolves
    /// to, for the first URL and every redirect. A refused address is not connected to, and a
    /// request with none left fails with an HttpError that says so. For requests made on someone
    /// else's behalf, which must not reach loopback or private networks: only after resolution is
    /// it known where a name leads. With a proxy, the address asked about is the proxy's.
    std::function<bool(const boost::asio::ip::address&)> allow_address;
};

/// One request for HttpClient::send.
struct MCP_API HttpRequest {
    /// An HTTP method such as "GET" or "POST"; an unknown one is refused with
    /// std::invalid_argument.
    std::string method = "GET";
    std::string url;  ///< An absolute http:// or https:// URL.
    /// Header fields to send; one named Host or User-Agent replaces the client's own. A name or
    /// value holding a line break is refused with std::invalid_argument.
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;  ///< The body; Content-Length is set from it.
};

/// What the server answered, whatever the status.
struct MCP_API HttpResponse {
    int status = 0;  ///< The status code, e.g. 200 or 404.
    std::string reason;  ///< The reason phrase of the status line, as the server wrote it (may be empty).
    /// Header fields in arrival order, names as the server wrote them.
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;  ///< The whole body; empty with send_streaming().
    /// The URL that answered, after redirects.
    std::string url;

    /// The first header of that name (any case), or nothing.
    std::optional<std::string_view> header(std::string_view name) const;
};

/// The server could not be reached or the answer was broken off: what() says which step failed
/// (name, connection, proxy, certificate, timeout, body too large).
class MCP_API HttpError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A small HTTP/1.1 client for what is not MCP (OAuth endpoints, LLM APIs): http and https, proxies,
/// keep-alive connections per origin, redirects. Any HTTP status is a response; failures to reach
/// the server throw HttpError.
class MCP_API HttpClient {
public:
    /// Does no I/O. An unusable CA file or proxy is reported by the first request that needs it,
    /// as std::invalid_argument.
    explicit HttpClient(boost::asio::any_io_executor executor, HttpClientOptions options = {});
    /// Closes every connection, as close() does; requests still in progress then fail, safely (they
    /// hold what they use).
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    /// Sends the request and reads the whole answer.
    boost::asio::awaitable<HttpResponse> send(HttpRequest request);
    /// The same, handing the body to `on_data` as it arrives (a server-sent event stream); the
    /// response's body stays empty.
    boost::asio::awaitable<HttpResponse> send_streaming(HttpRequest request,
                                                       std::function<void(std::string_view)> on_data);
    /// Closes every connection; requests in progress fail.
    void close();

    /// The connection pools and settings, defined inside the library.
    struct Impl;

private:
    std::shared_ptr<Impl> impl_;
};

}  // namespace mcp
