#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The authorization server's two POST endpoints a client calls: registration (RFC 7591) and the
// token endpoint (authorization code and refresh grants), with the client authentication methods
// of RFC 6749 §2.3.

#include "auth/AuthorizationDiscovery.hpp"
#include "mcp/auth/OAuthClient.hpp"
#include "mcp/auth/TokenStore.hpp"
#include "mcp/transport/HttpClient.hpp"

#include <boost/asio/awaitable.hpp>

#include <string>
#include <utility>
#include <vector>

namespace mcp::auth {

struct RegistrationRequest {
    std::string client_name;
    std::string application_type;
    std::string redirect_uri;
    bool refresh_tokens = true;
};

/// Dynamic Client Registration; throws AuthorizationError when refused.
boost::asio::awaitable<ClientCredentials> register_client(HttpClient& http, const AuthorizationServerMetadata& server,
                                                          RegistrationRequest request);

/// How this client authenticates at the token endpoint: what its registration said, else the
/// best the server supports for a client with (or without) a secret.
std::string token_endpoint_auth_method(const AuthorizationServerMetadata& server, const ClientCredentials& client);

using FormFields = std::vector<std::pair<std::string, std::string>>;

/// The token endpoint answered with an OAuth error (RFC 6749 §5.2), as opposed to not answering.
class TokenRequestRefused : public AuthorizationError {
public:
    TokenRequestRefused(std::string message, std::string error) : AuthorizationError(std::move(message)), error(std::move(error)) {}
    std::string error;  ///< invalid_grant, invalid_client, … ("" when the body said none)
};

/// POSTs a grant (`grant_fields`) to the token endpoint, authenticated as `client`. `requested_scope`
/// is what the tokens hold when the response does not say. Throws AuthorizationError when refused.
boost::asio::awaitable<Tokens> request_tokens(HttpClient& http, const AuthorizationServerMetadata& server,
                                              const ClientCredentials& client, FormFields grant_fields,
                                              std::string requested_scope);

}  // namespace mcp::auth
