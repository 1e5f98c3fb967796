#pragma once
// OAuth 2.1 for the server side of MCP: a protected resource (RFC 9728) that accepts bearer
// tokens issued for it and for nothing else.
//
//   auto verifier = mcp::auth::make_jwt_verifier(executor, {.issuer = "https://auth.example.com",
//                                                          .audience = "https://mcp.example.com/mcp"});
//   http_options.authorization = mcp::auth::ResourceServer::create({
//       .resource = "https://mcp.example.com/mcp",
//       .authorization_servers = {"https://auth.example.com"},
//       .scopes_supported = {"mcp:tools"},
//       .required_scopes = {"mcp:tools"},
//       .verifier = verifier});
//   server.require_scopes(mcp::ScopedItem::tool, "delete_file", {"files:write"});
//
// It serves the protected resource metadata at the path-aware well-known URL, answers a request
// without a valid token with 401 and `WWW-Authenticate: Bearer resource_metadata=…, scope=…`
// (with error="invalid_token" and the reason when a token was sent), and one whose token lacks a
// scope with 403 error="insufficient_scope". Tokens are checked for their issuer, expiry and
// audience (RFC 8707: a token for another resource is refused) by a pluggable verifier; two are
// built in: JWTs checked against the issuer's JWKS (RS256, ES256), and RFC 7662 introspection.

#include "mcp/Export.hpp"
#include "mcp/auth/AccessToken.hpp"
#include "mcp/transport/HttpClient.hpp"
#include "mcp/transport/HttpRequestAuthorizer.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

/// A token that must be refused; what() is the reason given in error_description.
class MCP_API InvalidTokenError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Checks a bearer token and says what it grants (make_jwt_verifier, make_introspection_verifier,
/// or an application's own).
class MCP_API TokenVerifier {
public:
    virtual ~TokenVerifier() = default;
    /// The token's claims; throws InvalidTokenError when it is not valid here (signature, issuer,
    /// expiry, audience), or another exception when it could not be checked (an unreachable
    /// authorization server: the request then gets 503, not 401).
    virtual boost::asio::awaitable<AccessToken> verify(std::string token) = 0;
};

/// Which JWTs make_jwt_verifier accepts and where it finds the keys.
struct MCP_API JwtVerifierOptions {
    /// The `iss` tokens must carry, character for character.
    std::string issuer;
    /// The `aud` tokens must include (the resource); "" accepts any audience (not recommended).
    std::string audience;
    /// Where the keys are; "" reads `jwks_uri` from the issuer's metadata.
    std::string jwks_url;
    /// Accepted signature algorithms (of RS256, RS384, RS512, PS256, ES256, ES384).
    std::vector<std::string> algorithms = {"RS256", "ES256"};
    /// Clock skew tolerated for exp, nbf and iat (a token issued further in the future is refused).
    std::chrono::seconds leeway{30};
    /// An unknown `kid` refetches the keys, at most this often.
    std::chrono::seconds min_refetch_interval{10};
    HttpClientOptions http;  ///< For fetching the issuer's metadata and keys: proxy, trust, timeouts.
};

/// JWT access tokens (RFC 9068) verified with the issuer's published keys, which are cached and
/// fetched again when a token names a key not seen yet.
MCP_API std::shared_ptr<TokenVerifier> make_jwt_verifier(boost::asio::any_io_executor executor, JwtVerifierOptions options);

/// Where make_introspection_verifier asks about tokens, with which credentials, and what it accepts.
struct MCP_API IntrospectionVerifierOptions {
    /// The RFC 7662 endpoint; "" reads `introspection_endpoint` from the issuer's metadata.
    std::string introspection_endpoint;
    /// The `iss` tokens must carry ("" for any); also where the endpoint is discovered when unset.
    std::string issuer;
    /// The audience the token must include ("" for any).
    std::string audience;
    /// This resource server's credentials at the authorization server (client_secret_basic).
    std::string client_id;
    std::string client_secret;  ///< The secret of `client_id`.
    /// Answers are kept until the token expires, at most this long.
    std::chrono::seconds max_cache{300};
    HttpClientOptions http;  ///< For the introspection requests and discovery: proxy, trust, timeouts.
};

/// Opaque (or any) tokens checked by asking the authorization server (RFC 7662).
MCP_API std::shared_ptr<TokenVerifier> make_introspection_verifier(boost::asio::any_io_executor executor,
                                                           IntrospectionVerifierOptions options);

/// What a ResourceServer advertises, whose tokens it accepts and which scopes every request needs.
struct MCP_API ResourceServerOptions {
    /// This server's canonical URI, the MCP endpoint's full URL: the `resource` of its metadata
    /// and the audience tokens must be for.
    std::string resource;
    /// The issuers whose tokens it accepts (the first is advertised first).
    std::vector<std::string> authorization_servers;
    /// Advertised in the metadata (what a client asks for when the 401 names no scope).
    std::vector<std::string> scopes_supported;
    /// Every request needs these (and the 401 names them).
    std::vector<std::string> required_scopes;
    std::shared_ptr<TokenVerifier> verifier;  ///< Checks each token; required.
    /// Refuse tokens whose audience does not include `resource` (RFC 8707), whatever the verifier
    /// checked.
    bool check_audience = true;
    /// A name for people, advertised as `resource_name` in the metadata when not empty.
    std::string resource_name;
    /// What was refused and why (never a token).
    std::function<void(std::string_view)> log;
};

/// OAuth 2.1 for the server side of MCP: a protected resource (RFC 9728) for
/// StreamableHttpServerOptions::authorization. Serves its metadata, answers 401 without a valid
/// token and 403 when scopes are missing.
class MCP_API ResourceServer : public HttpRequestAuthorizer {
public:
    /// Throws std::invalid_argument for unusable options (no verifier, a resource that is not an
    /// absolute http(s) URL without a fragment).
    static std::shared_ptr<ResourceServer> create(ResourceServerOptions options);
    /// The protected resource metadata document.
    virtual boost::json::object metadata() const = 0;
    /// Where it is served: /.well-known/oauth-protected-resource + the resource's path.
    virtual const std::string& metadata_path() const = 0;
};

}  // namespace mcp::auth
