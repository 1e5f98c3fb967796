#pragma once
// What a verified access token says: who, which client, which scopes, until when. Requests that
// arrived with one carry it to handlers (RequestContext::access_token()).

#include "mcp/Export.hpp"
#include "mcp/jsonrpc/Codec.hpp"

#include <boost/json/object.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

/// What a verified access token says: who, which client, which scopes, until when. Handlers find it
/// with RequestContext::access_token().
struct MCP_API AccessToken {
    std::string subject;    ///< `sub`: the user (or client) it was issued to
    std::string client_id;  ///< the client that obtained it
    std::string issuer;  ///< `iss`: the authorization server that issued it.
    std::vector<std::string> audience;  ///< `aud`: the resources it is meant for.
    std::vector<std::string> scopes;  ///< The scopes granted.
    std::int64_t expires_at = 0;  ///< seconds since the epoch; 0 when unknown
    /// Everything the token (or the introspection answer) said.
    boost::json::object claims;

    /// Whether `scope` was granted.
    bool has_scope(std::string_view scope) const {
        return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
    }
    /// Whether every scope in `wanted` was granted (true for an empty list).
    bool has_scopes(const std::vector<std::string>& wanted) const {
        return std::all_of(wanted.begin(), wanted.end(), [&](const std::string& scope) { return has_scope(scope); });
    }
};

/// The origin of messages whose HTTP request carried a verified token.
struct MCP_API AuthorizedOrigin final : jsonrpc::MessageOrigin {
    /// Marks messages as sent with `token_`.
    explicit AuthorizedOrigin(AccessToken token_) : token(std::move(token_)) {}
    AccessToken token;  ///< The verified token.
};

/// The verified token a message came with, or nullptr.
inline const AccessToken* access_token_of(const jsonrpc::MessageOrigin* origin) {
    auto* authorized = dynamic_cast<const AuthorizedOrigin*>(origin);
    return authorized ? &authorized->token : nullptr;
}

}  // namespace mcp::auth
