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

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

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

struct HttpClientOptions {
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
    int max_redirects = 5;
};

struct HttpRequest {
    std::string method = "GET";
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
};

struct HttpResponse {
    int status = 0;
    std::string reason;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    /// The URL that answered, after redirects.
    std::string url;

    /// The first header of that name (any case), or nothing.
    std::optional<std::string_view> header(std::string_view name) const;
};

class HttpError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class HttpClient {
public:
    /// Throws std::invalid_argument for an unusable CA file or proxy (at the first https request).
    explicit HttpClient(boost::asio::any_io_executor executor, HttpClientOptions options = {});
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

    struct Impl;

private:
    std::shared_ptr<Impl> impl_;
};

}  // namespace mcp
