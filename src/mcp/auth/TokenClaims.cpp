#include "auth/TokenClaims.hpp"

#include "auth/JsonDocument.hpp"
#include "auth/Scopes.hpp"
#include "mcp/auth/ResourceServer.hpp"

#include <algorithm>
#include <cmath>

namespace mcp::auth {
namespace json = boost::json;

namespace {

std::vector<std::string> strings_of(const json::value* value) {
    std::vector<std::string> out;
    if (!value) return out;
    if (value->is_string()) {
        out.emplace_back(value->get_string());
    } else if (value->is_array()) {
        for (const auto& item : value->get_array())
            if (item.is_string()) out.emplace_back(item.get_string());
    }
    return out;
}

std::optional<std::int64_t> time_of(const json::object& claims, std::string_view field) {
    auto* value = claims.if_contains(field);
    if (!value) return std::nullopt;
    if (value->is_int64()) return value->get_int64();
    if (value->is_uint64()) return static_cast<std::int64_t>(value->get_uint64());
    if (value->is_double()) return static_cast<std::int64_t>(std::floor(value->get_double()));
    throw InvalidTokenError("the token's " + std::string(field) + " is not a number");
}

}  // namespace

std::int64_t seconds_since_epoch() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

AccessToken access_token_from_claims(json::object claims) {
    AccessToken token;
    token.subject = json_fields::text(claims, "sub");
    token.client_id = json_fields::text(claims, "client_id");
    if (token.client_id.empty()) token.client_id = json_fields::text(claims, "azp");
    token.issuer = json_fields::text(claims, "iss");
    token.audience = strings_of(claims.if_contains("aud"));
    if (auto* scope = claims.if_contains("scope"); scope && scope->is_string()) token.scopes = split_scopes(scope->get_string());
    else if (auto* scp = claims.if_contains("scp"); scp && scp->is_string()) token.scopes = split_scopes(scp->get_string());
    else token.scopes = strings_of(claims.if_contains("scp"));
    token.expires_at = time_of(claims, "exp").value_or(0);
    token.claims = std::move(claims);
    return token;
}

void check_claims(const AccessToken& token, const std::string& issuer, const std::string& audience,
                  std::chrono::seconds leeway, bool require_expiry) {
    std::int64_t now = seconds_since_epoch();
    if (!issuer.empty() && token.issuer != issuer)
        throw InvalidTokenError("the token was issued by " + (token.issuer.empty() ? "nobody" : token.issuer) +
                                ", not by " + issuer);
    if (token.expires_at == 0 && require_expiry) throw InvalidTokenError("the token has no expiry (exp)");
    if (token.expires_at != 0 && token.expires_at + leeway.count() <= now) throw InvalidTokenError("the token has expired");
    if (auto not_before = time_of(token.claims, "nbf"); not_before && *not_before - leeway.count() > now)
        throw InvalidTokenError("the token is not valid yet (nbf)");
    // A token issued in the future was minted by a clock we must not trust (or forged to outlive
    // a revocation); the same leeway as exp and nbf absorbs honest clock skew.
    if (auto issued_at = time_of(token.claims, "iat"); issued_at && *issued_at - leeway.count() > now)
        throw InvalidTokenError("the token was issued in the future (iat " + std::to_string(*issued_at) +
                                " is more than " + std::to_string(leeway.count()) + " s ahead of this server's clock)");
    if (!audience.empty() && std::find(token.audience.begin(), token.audience.end(), audience) == token.audience.end())
        throw InvalidTokenError("the token is not for this resource (its audience is not " + audience + ")");
}

}  // namespace mcp::auth
