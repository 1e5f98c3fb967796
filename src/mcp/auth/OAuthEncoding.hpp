#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The small encodings OAuth needs: PKCE (RFC 7636), unguessable state values, form bodies.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::auth {

/// Base64url without padding (RFC 4648 §5).
std::string base64url(std::string_view bytes);

/// `bytes` random bytes from OpenSSL's CSPRNG, base64url-encoded (a PKCE verifier of 32 bytes is
/// 43 characters, the least RFC 7636 allows).
std::string random_token(std::size_t bytes = 32);

/// BASE64URL(SHA256(bytes)).
std::string sha256_base64url(std::string_view bytes);

/// BASE64URL(SHA256(verifier)): the S256 code challenge.
std::string pkce_s256_challenge(std::string_view verifier);

/// application/x-www-form-urlencoded.
std::string form_encode(const std::vector<std::pair<std::string, std::string>>& fields);

/// The Authorization header value of client_secret_basic: each part form-encoded before Base64
/// (RFC 6749 §2.3.1).
std::string basic_authorization(std::string_view client_id, std::string_view client_secret);

}  // namespace mcp::auth
