#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Claims, from a JWT or an introspection answer, as an AccessToken; and the checks every verifier
// makes on them (issuer, time, audience).

#include "mcp/auth/AccessToken.hpp"

#include <chrono>
#include <string>

namespace mcp::auth {

/// Reads sub, client_id (or azp), iss, aud (string or array), scope (or scp), exp.
AccessToken access_token_from_claims(boost::json::object claims);

/// Throws InvalidTokenError when the token is expired, not yet valid, from another issuer or for
/// another audience. `require_expiry`: a token without exp is refused.
void check_claims(const AccessToken& token, const std::string& issuer, const std::string& audience,
                  std::chrono::seconds leeway, bool require_expiry);

std::int64_t seconds_since_epoch();

}  // namespace mcp::auth
