#pragma once
// DNS rebinding protection for every HTTP surface mcpkit serves (the MCP endpoint, the review
// panel, the devconsole daemon, the host): which Host and Origin headers a request may carry.
//
// Headers are parsed strictly before anything is compared. A URL parser is the wrong tool here:
// Boost 1.81 reads "http://127.0.0.1.evil.example" as host 127.0.0.1 with path ".evil.example",
// which let any page whose name starts with "127.0.0.1" through. An origin is scheme, host and
// port, nothing else; a Host header is host and port, nothing else.
//
//   auto policy = mcp::HostPolicy::for_server("127.0.0.1", {}, {});
//   if (auto problem = policy.check(host_header, origin_header)) refuse(403, *problem);

#include "mcp/Export.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// A Host header's parts: host lowercase (IPv6 in brackets), port if written.
struct MCP_API HostAndPort {
    std::string host;  ///< The host, lowercase; an IPv6 address keeps its brackets.
    std::optional<std::uint16_t> port;  ///< The port, when the header names one.
};

/// An origin's parts, lowercase, with the scheme's default port made explicit.
struct MCP_API Origin {
    std::string scheme;  ///< "http", "https", or another scheme such as "chrome-extension", lowercase.
    std::string host;  ///< The host, lowercase.
    std::optional<std::uint16_t> port;  ///< nothing only for schemes without a default (extensions)

    /// Same scheme, host and port.
    bool operator==(const Origin&) const = default;
    /// The origin as a browser writes it: "scheme://host", with ":port" only when not the default.
    std::string to_string() const;
};

/// "host" or "host:port" with nothing else; nothing if the text is anything more or less.
MCP_API std::optional<HostAndPort> parse_host_header(std::string_view text);
/// "scheme://host[:port]" with nothing after it (no path, not even "/"); nothing otherwise, and
/// for "null" (sandboxed frames and files send it; it names no one).
MCP_API std::optional<Origin> parse_origin(std::string_view text);

/// Which Host and Origin headers a request may carry: DNS rebinding protection for every HTTP surface
/// mcpkit serves. Headers are parsed strictly before anything is compared.
class MCP_API HostPolicy {
public:
    /// For a server bound to `bind_address`: loopback binds accept localhost, 127.0.0.1 and [::1];
    /// other binds accept the `allowed_hosts` (and, when there are none, any Host, with Origin then
    /// required to be the request's own). Throws std::invalid_argument naming a malformed entry.
    /// With `only_listed_origins`, a page is accepted only from an origin `allowed_origins` lists.
    static HostPolicy for_server(std::string_view bind_address, const std::vector<std::string>& allowed_hosts,
                                 const std::vector<std::string>& allowed_origins, bool only_listed_origins = false);
    /// The loopback names on exactly this port: a page's own local server.
    static HostPolicy loopback(std::uint16_t port);

    /// Why a request fails, or nothing if it passes. A missing Origin passes (programs send none).
    std::optional<std::string> check(std::string_view host, std::optional<std::string_view> origin) const;
    /// Why the Host header `host` is refused (malformed, or not a host served here), or nothing.
    std::optional<std::string> check_host(std::string_view host) const;
    /// Whether a page at `origin` may call a server reached as `host` (which passed check_host).
    std::optional<std::string> check_origin(std::string_view origin, std::string_view host) const;

    /// Whether `origin` is the origin of the server reached as `host` over `scheme`.
    static bool same_origin(std::string_view origin, std::string_view host, std::string_view scheme = "http");

private:
    std::vector<HostAndPort> hosts_;  ///< empty: any host
    std::vector<Origin> origins_;
    bool only_listed_origins_ = false;
};

}  // namespace mcp
