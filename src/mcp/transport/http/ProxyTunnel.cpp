#include "transport/http/ProxyTunnel.hpp"

#include "transport/http/HttpClientConnection.hpp"
#include "transport/http/OutgoingHeaders.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/url/parse.hpp>

#include <cstdlib>
#include <stdexcept>

namespace mcp::http {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace web = boost::beast::http;

namespace {

std::string lowered(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<std::string> environment(const char* upper, const char* lower) {
    // The lower-case form wins, as in curl: it is the one other tools agree on.
    if (const char* value = std::getenv(lower); value && *value) return std::string(value);
    if (const char* value = std::getenv(upper); value && *value) return std::string(value);
    return std::nullopt;
}

}  // namespace

ProxyRoute parse_proxy(std::string_view text) {
    std::string with_scheme = text.find("://") == std::string_view::npos ? "http://" + std::string(text) : std::string(text);
    auto parsed = boost::urls::parse_absolute_uri(with_scheme);
    if (!parsed || parsed->host_address().empty())
        throw std::invalid_argument("the proxy \"" + std::string(text) + "\" is not a URL like http://proxy.example:3128");
    if (parsed->scheme() != "http")
        throw std::invalid_argument("the proxy \"" + std::string(text) + "\" must be an http:// proxy (TLS to the proxy itself is not supported)");
    ProxyRoute route;
    route.host = std::string(parsed->host_address());
    route.port = parsed->has_port() ? std::string(parsed->port()) : "80";
    route.display = "http://" + std::string(parsed->encoded_host_and_port());
    if (parsed->has_userinfo())
        route.authorization = "Basic " + base64(std::string(parsed->user()) + ":" + std::string(parsed->password()));
    return route;
}

bool no_proxy_matches(std::string_view list, std::string_view host, std::string_view port) {
    std::string name = lowered(host);
    std::size_t at = 0;
    while (at <= list.size()) {
        std::size_t comma = list.find(',', at);
        if (comma == std::string_view::npos) comma = list.size();
        std::string entry = lowered(list.substr(at, comma - at));
        at = comma + 1;
        while (!entry.empty() && entry.front() == ' ') entry.erase(0, 1);
        while (!entry.empty() && entry.back() == ' ') entry.pop_back();
        if (entry.empty()) continue;
        if (entry == "*") return true;
        if (auto colon = entry.rfind(':'); colon != std::string::npos && entry.find(']') == std::string::npos &&
                                           entry.find(':') == colon) {
            if (entry.substr(colon + 1) != port) continue;  // "host:port" names one port only
            entry.resize(colon);
        }
        if (entry.starts_with("*.")) entry.erase(0, 1);
        if (entry.starts_with('.')) entry.erase(0, 1);
        if (name == entry || (name.size() > entry.size() && name.ends_with(entry) &&
                              name[name.size() - entry.size() - 1] == '.'))
            return true;
    }
    return false;
}

std::optional<ProxyRoute> proxy_for(const HttpUrl& target, const std::optional<std::string>& configured) {
    std::optional<std::string> proxy = configured;
    if (!proxy) {
        proxy = target.tls ? environment("HTTPS_PROXY", "https_proxy") : environment("HTTP_PROXY", "http_proxy");
        if (proxy) {
            auto no_proxy = environment("NO_PROXY", "no_proxy");
            if (no_proxy && no_proxy_matches(*no_proxy, target.host, target.port)) return std::nullopt;
        }
    }
    if (!proxy || proxy->empty()) return std::nullopt;
    return parse_proxy(*proxy);
}

asio::awaitable<bool> open_tunnel(ClientStream::Plain& stream, const HttpUrl& target, const ProxyRoute& proxy,
                                  std::chrono::milliseconds timeout, std::string& error) {
    constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
    std::string authority = target.host_header.empty() ? target.host + ":" + target.port : target.host_header;
    if (authority.find(':') == std::string::npos || authority.back() == ']') authority += ":" + target.port;
    web::request<web::empty_body> request(web::verb::connect, authority, 11);
    request.set(web::field::host, authority);
    if (!proxy.authorization.empty()) request.set(web::field::proxy_authorization, proxy.authorization);
    stream.expires_after(timeout);
    auto [write_error, written] = co_await web::async_write(stream, request, use_tuple);
    if (write_error) {
        stream.expires_never();
        error = "the proxy " + proxy.display + " closed the connection: " + write_error.message();
        co_return false;
    }
    beast::flat_buffer buffer;
    web::response_parser<web::empty_body> parser;
    parser.skip(true);  // a CONNECT answer has no body: what follows belongs to the tunnel
    auto [read_error, read] = co_await web::async_read_header(stream, buffer, parser, use_tuple);
    stream.expires_never();
    if (read_error) {
        error = "the proxy " + proxy.display + " did not answer CONNECT: " + read_error.message();
        co_return false;
    }
    int status = static_cast<int>(parser.get().result_int());
    if (status / 100 != 2) {
        error = "the proxy " + proxy.display + " refused the tunnel to " + authority + ": HTTP " + std::to_string(status) +
                " " + std::string(parser.get().reason());
        co_return false;
    }
    if (buffer.size() > 0) {
        error = "the proxy " + proxy.display + " sent data before the tunnel opened";
        co_return false;
    }
    co_return true;
}

}  // namespace mcp::http
