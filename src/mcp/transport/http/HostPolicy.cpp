#include "mcp/transport/HostPolicy.hpp"

#include <algorithm>
#include <stdexcept>

namespace mcp {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_hex(char c) { return is_digit(c) || (lower(c) >= 'a' && lower(c) <= 'f'); }

/// A DNS name or IPv4 address: letters, digits, '-', '.', '_' (seen in real local names).
bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_'; }

std::optional<std::uint16_t> parse_port(std::string_view text) {
    if (text.empty() || text.size() > 5 || !std::all_of(text.begin(), text.end(), is_digit)) return std::nullopt;
    unsigned value = 0;
    for (char c : text) value = value * 10 + static_cast<unsigned>(c - '0');
    if (value == 0 || value > 65535) return std::nullopt;
    return static_cast<std::uint16_t>(value);
}

/// "host" or "host:port" as in a Host header or after "scheme://".
std::optional<HostAndPort> parse_authority(std::string_view text) {
    HostAndPort parsed;
    std::string_view rest;
    if (text.starts_with('[')) {
        auto close = text.find(']');
        if (close == std::string_view::npos || close < 3) return std::nullopt;
        std::string_view address = text.substr(1, close - 1);
        if (!std::all_of(address.begin(), address.end(), [](char c) { return is_hex(c) || c == ':' || c == '.'; }) ||
            address.find(':') == std::string_view::npos)
            return std::nullopt;
        parsed.host = "[" + std::string(address) + "]";
        rest = text.substr(close + 1);
    } else {
        auto colon = text.find(':');
        std::string_view name = text.substr(0, colon);
        if (name.empty() || !std::all_of(name.begin(), name.end(), is_name_char) || name.front() == '.' ||
            name.back() == '.')
            return std::nullopt;
        parsed.host = std::string(name);
        rest = colon == std::string_view::npos ? std::string_view() : text.substr(colon);
    }
    if (!rest.empty()) {
        if (rest.front() != ':') return std::nullopt;
        parsed.port = parse_port(rest.substr(1));
        if (!parsed.port) return std::nullopt;
    }
    std::transform(parsed.host.begin(), parsed.host.end(), parsed.host.begin(), lower);
    return parsed;
}

std::optional<std::uint16_t> default_port(std::string_view scheme) {
    if (scheme == "http" || scheme == "ws") return 80;
    if (scheme == "https" || scheme == "wss") return 443;
    return std::nullopt;
}

bool is_loopback_bind(std::string_view address) {
    return address == "127.0.0.1" || address == "::1" || address == "[::1]" || address == "localhost" ||
           address.starts_with("127.");
}

std::vector<HostAndPort> loopback_names(std::optional<std::uint16_t> port) {
    return {{"localhost", port}, {"127.0.0.1", port}, {"[::1]", port}};
}

/// A Host header's port, or the scheme's default when it names none.
std::optional<std::uint16_t> effective_port(const HostAndPort& host, std::string_view scheme) {
    return host.port ? host.port : default_port(scheme);
}

bool host_matches(const HostAndPort& allowed, const HostAndPort& given) {
    return allowed.host == given.host && (!allowed.port || allowed.port == given.port);
}

}  // namespace

std::string Origin::to_string() const {
    std::string text = scheme + "://" + host;
    if (port && port != default_port(scheme)) text += ":" + std::to_string(*port);
    return text;
}

std::optional<HostAndPort> parse_host_header(std::string_view text) { return parse_authority(text); }

std::optional<Origin> parse_origin(std::string_view text) {
    auto separator = text.find("://");
    if (separator == std::string_view::npos || separator == 0) return std::nullopt;
    std::string_view scheme = text.substr(0, separator);
    if (!is_alpha(scheme.front()) ||
        !std::all_of(scheme.begin(), scheme.end(),
                     [](char c) { return is_alpha(c) || is_digit(c) || c == '+' || c == '-' || c == '.'; }))
        return std::nullopt;
    auto authority = parse_authority(text.substr(separator + 3));
    if (!authority) return std::nullopt;
    Origin origin;
    origin.scheme = std::string(scheme);
    std::transform(origin.scheme.begin(), origin.scheme.end(), origin.scheme.begin(), lower);
    origin.host = std::move(authority->host);
    origin.port = authority->port ? authority->port : default_port(origin.scheme);
    return origin;
}

HostPolicy HostPolicy::for_server(std::string_view bind_address, const std::vector<std::string>& allowed_hosts,
                                  const std::vector<std::string>& allowed_origins, bool only_listed_origins) {
    HostPolicy policy;
    policy.only_listed_origins_ = only_listed_origins;
    for (const auto& entry : allowed_hosts) {
        auto parsed = parse_host_header(entry);
        if (!parsed)
            throw std::invalid_argument("allowed host \"" + entry +
                                        "\" is not a host name: write NAME or NAME:PORT, e.g. mcp.example.com");
        policy.hosts_.push_back(std::move(*parsed));
    }
    if (policy.hosts_.empty() && is_loopback_bind(bind_address)) policy.hosts_ = loopback_names(std::nullopt);
    for (const auto& entry : allowed_origins) {
        auto parsed = parse_origin(entry);
        if (!parsed)
            throw std::invalid_argument("allowed origin \"" + entry +
                                        "\" is not an origin: write SCHEME://HOST[:PORT] with no path, e.g. "
                                        "https://app.example.com");
        policy.origins_.push_back(std::move(*parsed));
    }
    return policy;
}

HostPolicy HostPolicy::loopback(std::uint16_t port) {
    HostPolicy policy;
    policy.hosts_ = loopback_names(port);
    return policy;
}

std::optional<std::string> HostPolicy::check(std::string_view host, std::optional<std::string_view> origin) const {
    if (auto problem = check_host(host)) return problem;
    if (origin) return check_origin(*origin, host);
    return std::nullopt;
}

std::optional<std::string> HostPolicy::check_host(std::string_view host) const {
    auto parsed = parse_host_header(host);
    if (parsed && (hosts_.empty() || std::any_of(hosts_.begin(), hosts_.end(),
                                                 [&](const HostAndPort& allowed) { return host_matches(allowed, *parsed); })))
        return std::nullopt;
    return "Invalid Host: \"" + std::string(host) + "\" is not served here (DNS rebinding protection)";
}

std::optional<std::string> HostPolicy::check_origin(std::string_view origin, std::string_view host) const {
    auto refused = [&] {
        return "Invalid Origin: \"" + std::string(origin) + "\" may not call this server (DNS rebinding protection)";
    };
    auto parsed = parse_origin(origin);
    if (!parsed) return refused();
    if (std::find(origins_.begin(), origins_.end(), *parsed) != origins_.end()) return std::nullopt;
    if (only_listed_origins_)
        return "Invalid Origin: \"" + std::string(origin) +
               "\" may not call this server: web pages are refused unless --allow-origin names them";
    if (parsed->scheme != "http" && parsed->scheme != "https") return refused();
    if (hosts_.empty()) return same_origin(origin, host, parsed->scheme) ? std::nullopt : std::optional(refused());
    HostAndPort origin_host{parsed->host, parsed->port};
    for (const auto& allowed : hosts_) {
        // A host allowed without a port (the loopback names by default) allows pages on any port
        // of it: those are the same machine, or the same name the operator vouched for.
        if (allowed.host == origin_host.host && (!allowed.port || allowed.port == origin_host.port)) return std::nullopt;
    }
    return refused();
}

bool HostPolicy::same_origin(std::string_view origin, std::string_view host, std::string_view scheme) {
    auto parsed_origin = parse_origin(origin);
    auto parsed_host = parse_host_header(host);
    if (!parsed_origin || !parsed_host || parsed_origin->scheme != scheme) return false;
    return parsed_origin->host == parsed_host->host && parsed_origin->port == effective_port(*parsed_host, scheme);
}

}  // namespace mcp
