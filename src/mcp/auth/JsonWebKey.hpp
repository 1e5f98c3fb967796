#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Public keys from a JWKS (RFC 7517) and JWS signature checks (RFC 7515/7518), done by OpenSSL:
// RS256/384/512, PS256, ES256/384. Nothing here computes cryptography itself.

#include <boost/json/object.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace mcp::auth {

struct PublicKey {
    std::string kid;
    std::string alg;  ///< the JWK's alg, if it named one
    std::string kty;  ///< RSA or EC
    std::string crv;  ///< EC: P-256, P-384
    std::shared_ptr<EVP_PKEY> key;
};

/// The key a JWK describes; nothing for one that is not a usable public signing key.
std::optional<PublicKey> public_key_from_jwk(const boost::json::object& jwk);

/// Whether `signature` (as the JWS carries it) signs `signing_input` with `key` under `alg`. An
/// algorithm that does not fit the key's type is false, never a guess.
bool verify_jws_signature(const PublicKey& key, std::string_view alg, std::string_view signing_input,
                          std::string_view signature);

/// Base64url (padded or not) to bytes; nothing when it is not Base64url.
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace mcp::auth
