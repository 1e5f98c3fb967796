#pragma once
// The simplest guard for a local server's endpoint: one shared secret, sent as
// `Authorization: Bearer <secret>`. For a server on loopback that other local users (or their
// programs) must not use, where OAuth would be out of place: the secret lives in a file only its
// user can read, and the clients that user configures carry it.

#include "mcp/Export.hpp"
#include "mcp/transport/HttpRequestAuthorizer.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace mcp {

/// Whether two secrets are equal, in time that depends only on their length.
MCP_API bool same_secret(std::string_view given, std::string_view expected);

/// Refuses (401, WWW-Authenticate: Bearer) every request whose Authorization header is not
/// "Bearer <secret>"; `hint` ends the refusal's message and should say where the secret is.
MCP_API std::shared_ptr<HttpRequestAuthorizer> make_bearer_secret_authorizer(std::string secret, std::string hint);

}  // namespace mcp
