#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Finding who authorizes a resource: its protected resource metadata (RFC 9728), then that
// authorization server's metadata (RFC 8414 / OpenID Connect discovery), each checked against
// what the client asked for; and the 2025-03-26 fallbacks for servers without either.

#include "mcp/transport/HttpClient.hpp"

#include <boost/asio/awaitable.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

struct ProtectedResourceMetadata {
    std::string url;  ///< where it was read
    std::string resource;
    std::vector<std::string> authorization_servers;
    std::vector<std::string> scopes_supported;
};

struct AuthorizationServerMetadata {
    std::string issuer;
    std::string authorization_endpoint;
    std::string token_endpoint;
    std::string registration_endpoint;  ///< "" when it offers no Dynamic Client Registration
    std::string jwks_uri;                ///< "" when not published
    std::string introspection_endpoint;  ///< "" when not published
    std::vector<std::string> scopes_supported;
    std::vector<std::string> code_challenge_methods_supported;
    /// Empty: the server did not say (RFC 8414 then means client_secret_basic).
    std::vector<std::string> token_endpoint_auth_methods_supported;
    bool client_id_metadata_document_supported = false;
    /// authorization_response_iss_parameter_supported (RFC 9207).
    bool iss_parameter_supported = false;
    /// The 2025-03-26 default endpoints, for a server that publishes no metadata at all.
    bool assumed = false;
};

using DiscoveryLog = std::function<void(std::string_view)>;

/// The metadata URLs to try for a resource, in the spec's order: `announced` (the 401's
/// resource_metadata) alone when given, else the path-aware then the root well-known URL.
std::vector<std::string> protected_resource_metadata_urls(std::string_view resource_url, std::string_view announced);

/// The metadata URLs of an issuer, in the spec's order (RFC 8414 path insertion, then OpenID
/// Connect discovery with path insertion and with the path appended).
std::vector<std::string> authorization_server_metadata_urls(std::string_view issuer);

/// Whether a protected resource metadata `resource` may stand for `resource_url`: the same
/// origin, and a path that is the URL's or a parent of it on a segment boundary.
bool resource_matches(std::string_view resource, std::string_view resource_url);

/// Reads the resource's metadata; nothing when no URL has it (a 2025-03-26 server). Throws
/// AuthorizationError for a document that is malformed or names another resource.
boost::asio::awaitable<std::optional<ProtectedResourceMetadata>> discover_protected_resource(
    HttpClient& http, std::string resource_url, std::string announced, const DiscoveryLog& log);

/// Reads an issuer's metadata; throws AuthorizationError when none is found, or when the
/// document's issuer is not `issuer` exactly (RFC 8414 §3.3), or it lacks a required endpoint.
boost::asio::awaitable<AuthorizationServerMetadata> discover_authorization_server(HttpClient& http, std::string issuer,
                                                                                  const DiscoveryLog& log);

/// 2025-03-26, no protected resource metadata: the MCP server's origin is the authorization
/// server; its metadata at the root well-known URL, else the default /authorize, /token and
/// /register endpoints there.
boost::asio::awaitable<AuthorizationServerMetadata> legacy_authorization_server(HttpClient& http,
                                                                                std::string resource_url,
                                                                                const DiscoveryLog& log);

}  // namespace mcp::auth
