#pragma once
// What a verified access token says: who, which client, which scopes, until when. Requests that
// arrived with one carry it to handlers (RequestContext::access_token()).

#include "mcp/jsonrpc/Codec.hpp"

#include <boost/json/object.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

struct AccessToken {
    std::string subject;    ///< `sub`: the user (or client) it was issued to
    std::string client_id;  ///< the client that obtained it
    std::string issuer;
    std::vector<std::string> audience;
    std::vector<std::string> scopes;
    std::int64_t expires_at = 0;  ///< seconds since the epoch; 0 when unknown
    /// Everything the token (or the introspection answer) said.
    boost::json::object claims;

    bool has_scope(std::string_view scope) const {
        return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
    }
    bool has_scopes(const std::vector<std::string>& wanted) const {
        return std::all_of(wanted.begin(), wanted.end(), [&](const std::string& scope) { return has_scope(scope); });
    }
};

/// The origin of messages whose HTTP request carried a verified token.
struct AuthorizedOrigin final : jsonrpc::MessageOrigin {
    explicit AuthorizedOrigin(AccessToken token_) : token(std::move(token_)) {}
    AccessToken token;
};

/// The verified token a message came with, or nullptr.
inline const AccessToken* access_token_of(const jsonrpc::MessageOrigin* origin) {
    auto* authorized = dynamic_cast<const AuthorizedOrigin*>(origin);
    return authorized ? &authorized->token : nullptr;
}

}  // namespace mcp::auth
