#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Reaching a server through an HTTP proxy, as users behind company proxies expect: the proxy comes
// from HTTPS_PROXY / HTTP_PROXY (or their lower-case forms) unless NO_PROXY names the host, and
// the client opens a CONNECT tunnel through it, over which plain HTTP or TLS then runs.

#include "transport/http/PlainOrTlsStream.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace mcp::http {

struct HttpUrl;

struct ProxyRoute {
    std::string host;
    std::string port;
    std::string authorization;  ///< "Basic …" from the proxy URL's user and password, or empty
    std::string display;        ///< the proxy as the user wrote it, without the password
};

/// Parses a proxy URL ("http://[user:password@]host[:port]" or "host:port"); throws
/// std::invalid_argument naming what is wrong (https:// proxies are not supported).
ProxyRoute parse_proxy(std::string_view text);

/// The proxy for `target`: `configured` if given ("" for none), else the environment's. Nothing
/// when the connection goes direct (no proxy, or NO_PROXY matches the host).
std::optional<ProxyRoute> proxy_for(const HttpUrl& target, const std::optional<std::string>& configured);

/// Whether a NO_PROXY list ("example.com,.internal,10.0.0.1,*") names `host` (or `host:port`).
bool no_proxy_matches(std::string_view list, std::string_view host, std::string_view port);

/// Asks the proxy on `stream` for a tunnel to `target`. False, with `error` set, when it refuses.
boost::asio::awaitable<bool> open_tunnel(ClientStream::Plain& stream, const HttpUrl& target, const ProxyRoute& proxy,
                                         std::chrono::milliseconds timeout, std::string& error);

}  // namespace mcp::http
