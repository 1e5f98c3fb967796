#include "auth/AuthorizationDiscovery.hpp"

#include "auth/JsonDocument.hpp"
#include "mcp/auth/OAuthClient.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

namespace mcp::auth {
namespace json = boost::json;

namespace {

boost::urls::url parse_url(std::string_view text, std::string_view what) {
    auto parsed = boost::urls::parse_absolute_uri(text);
    if (!parsed || (parsed->scheme() != "http" && parsed->scheme() != "https") || !parsed->has_authority())
        throw AuthorizationError(std::string(what) + " \"" + std::string(text) + "\" is not an http(s) URL");
    return boost::urls::url(*parsed);
}

/// Authorization server endpoints carry codes, verifiers and secrets: https only (MCP
/// authorization), except on this machine, where nothing crosses a network.
void require_https(const boost::urls::url& url, const std::string& what) {
    if (url.scheme() == "https") return;
    std::string host(url.encoded_host());
    if (host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host.starts_with("127.")) return;
    throw AuthorizationError(what + " (" + std::string(url.buffer()) +
                             ") is not https: authorization servers must be reached over TLS");
}

std::string origin_of(const boost::urls::url& url) {
    std::string origin = std::string(url.scheme()) + "://" + std::string(url.encoded_host_and_port());
    return origin;
}

/// The path without a trailing slash ("" for the root).
std::string trimmed_path(const boost::urls::url& url) {
    std::string path(url.encoded_path());
    while (!path.empty() && path.back() == '/') path.pop_back();
    return path;
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::uint16_t effective_port(const boost::urls::url& url) {
    if (url.has_port()) return url.port_number();
    return url.scheme() == "https" ? 443 : 80;
}

/// GET a JSON document; nothing for a 4xx (not there), AuthorizationError for anything else.
boost::asio::awaitable<std::optional<json::object>> fetch_document(HttpClient& http, const std::string& url,
                                                                   std::string_view what) {
    // Built before the co_await: g++ 12 miscompiles braced initializers inside one.
    HttpRequest request{.method = "GET", .url = url, .headers = {{"Accept", "application/json"}, {"MCP-Protocol-Version", "2025-11-25"}}};
    HttpResponse response;
    try {
        response = co_await http.send(std::move(request));
    } catch (const HttpError& e) {
        throw AuthorizationError("cannot read the " + std::string(what) + " at " + url + ": " + e.what());
    }
    if (response.status >= 400 && response.status < 500) co_return std::nullopt;
    if (response.status != 200)
        throw AuthorizationError("the " + std::string(what) + " at " + url + " answered HTTP " +
                                 std::to_string(response.status));
    co_return parse_json_document(response.body, std::string(what) + " at " + url);
}

}  // namespace

std::vector<std::string> protected_resource_metadata_urls(std::string_view resource_url, std::string_view announced) {
    if (!announced.empty()) {
        parse_url(announced, "the resource_metadata URL");
        return {std::string(announced)};
    }
    auto url = parse_url(resource_url, "the server URL");
    std::string origin = origin_of(url);
    std::string path = trimmed_path(url);
    std::vector<std::string> urls;
    if (!path.empty()) urls.push_back(origin + "/.well-known/oauth-protected-resource" + path);
    urls.push_back(origin + "/.well-known/oauth-protected-resource");
    return urls;
}

std::vector<std::string> authorization_server_metadata_urls(std::string_view issuer) {
    auto url = parse_url(issuer, "the authorization server");
    std::string origin = origin_of(url);
    std::string path = trimmed_path(url);
    if (path.empty())
        return {origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"};
    return {origin + "/.well-known/oauth-authorization-server" + path,
            origin + "/.well-known/openid-configuration" + path, origin + path + "/.well-known/openid-configuration"};
}

bool resource_matches(std::string_view resource, std::string_view resource_url) {
    auto a = boost::urls::parse_absolute_uri(resource);
    auto b = boost::urls::parse_absolute_uri(resource_url);
    if (!a || !b) return false;
    boost::urls::url left(*a), right(*b);
    if (lower(left.scheme()) != lower(right.scheme()) || lower(left.encoded_host()) != lower(right.encoded_host()) ||
        effective_port(left) != effective_port(right))
        return false;
    std::string parent = trimmed_path(left);
    std::string path = trimmed_path(right);
    return path == parent || (path.starts_with(parent) && path[parent.size()] == '/');
}

boost::asio::awaitable<std::optional<ProtectedResourceMetadata>> discover_protected_resource(
    HttpClient& http, std::string resource_url, std::string announced, const DiscoveryLog& log) {
    for (const auto& url : protected_resource_metadata_urls(resource_url, announced)) {
        auto document = co_await fetch_document(http, url, "protected resource metadata");
        if (!document) {
            if (log) log("no protected resource metadata at " + url);
            continue;
        }
        std::string where = "the protected resource metadata at " + url;
        ProtectedResourceMetadata metadata;
        metadata.url = url;
        metadata.resource = required_string(*document, "resource", where);
        metadata.authorization_servers = string_list(*document, "authorization_servers", where);
        metadata.scopes_supported = string_list(*document, "scopes_supported", where);
        if (!resource_matches(metadata.resource, resource_url))
            throw AuthorizationError(where + " is for the resource \"" + metadata.resource + "\", not for " +
                                     resource_url + "; refusing to authorize with it (RFC 9728 §3.3)");
        if (metadata.authorization_servers.empty())
            throw AuthorizationError(where + " names no authorization server (authorization_servers)");
        co_return metadata;
    }
    co_return std::nullopt;
}

namespace {

/// The metadata of the authorization server `issuer`, read at `url`.
AuthorizationServerMetadata read_server_metadata(const json::object& document, const std::string& url,
                                                 const std::string& issuer) {
    std::string where = "the authorization server metadata at " + url;
    AuthorizationServerMetadata metadata;
    metadata.issuer = required_string(document, "issuer", where);
    metadata.authorization_endpoint = required_string(document, "authorization_endpoint", where);
    metadata.token_endpoint = required_string(document, "token_endpoint", where);
    metadata.registration_endpoint = optional_string(document, "registration_endpoint", where);
    metadata.jwks_uri = optional_string(document, "jwks_uri", where);
    metadata.introspection_endpoint = optional_string(document, "introspection_endpoint", where);
    metadata.scopes_supported = string_list(document, "scopes_supported", where);
    metadata.code_challenge_methods_supported = string_list(document, "code_challenge_methods_supported", where);
    metadata.token_endpoint_auth_methods_supported =
        string_list(document, "token_endpoint_auth_methods_supported", where);
    metadata.client_id_metadata_document_supported =
        optional_bool(document, "client_id_metadata_document_supported", where);
    metadata.iss_parameter_supported = optional_bool(document, "authorization_response_iss_parameter_supported", where);
    require_https(parse_url(metadata.authorization_endpoint, where + ": authorization_endpoint"),
                  where + ": authorization_endpoint");
    require_https(parse_url(metadata.token_endpoint, where + ": token_endpoint"), where + ": token_endpoint");
    if (!metadata.registration_endpoint.empty())
        require_https(parse_url(metadata.registration_endpoint, where + ": registration_endpoint"),
                      where + ": registration_endpoint");
    // Simple string comparison: a document naming another issuer may be an attacker's.
    if (metadata.issuer != issuer)
        throw AuthorizationError(where + " names the issuer \"" + metadata.issuer + "\", not \"" + issuer +
                                 "\"; refusing to use it (RFC 8414 §3.3)");
    return metadata;
}

}  // namespace

boost::asio::awaitable<AuthorizationServerMetadata> discover_authorization_server(HttpClient& http, std::string issuer,
                                                                                  const DiscoveryLog& log) {
    auto urls = authorization_server_metadata_urls(issuer);
    for (const auto& url : urls) {
        auto document = co_await fetch_document(http, url, "authorization server metadata");
        if (!document) {
            if (log) log("no authorization server metadata at " + url);
            continue;
        }
        co_return read_server_metadata(*document, url, issuer);
    }
    std::string tried;
    for (const auto& url : urls) tried += (tried.empty() ? "" : ", ") + url;
    throw AuthorizationError("the authorization server " + issuer + " publishes no metadata (tried " + tried + ")");
}

boost::asio::awaitable<AuthorizationServerMetadata> legacy_authorization_server(HttpClient& http,
                                                                                std::string resource_url,
                                                                                const DiscoveryLog& log) {
    std::string origin = origin_of(parse_url(resource_url, "the server URL"));
    std::string url = origin + "/.well-known/oauth-authorization-server";
    if (auto document = co_await fetch_document(http, url, "authorization server metadata"))
        co_return read_server_metadata(*document, url, origin);
    require_https(parse_url(origin, "the server URL"), "the default authorization endpoints of " + origin);
    if (log) log("no authorization server metadata at " + url + "; using the default endpoints of " + origin);
    AuthorizationServerMetadata metadata;
    metadata.issuer = origin;
    metadata.authorization_endpoint = origin + "/authorize";
    metadata.token_endpoint = origin + "/token";
    metadata.registration_endpoint = origin + "/register";
    metadata.code_challenge_methods_supported = {"S256"};
    metadata.assumed = true;
    co_return metadata;
}

}  // namespace mcp::auth
