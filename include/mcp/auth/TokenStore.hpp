#pragma once
// Where an OAuth client keeps what it must not ask for twice: the credentials each authorization
// server issued it (by issuer), and the tokens it holds for each protected resource (by issuer
// and resource). Credentials are bound to the issuer that issued them: a resource that moves to
// another authorization server gets a new registration, never the old one (SEP-2352).

#include "mcp/Export.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace mcp::auth {

/// What an authorization server issued this client at registration (or what was registered beforehand).
struct MCP_API ClientCredentials {
    std::string client_id;  ///< The id the client presents to the authorization server.
    /// "" for a public client.
    std::string client_secret;
    /// client_secret_basic, client_secret_post or none; "" lets the client choose from what the
    /// authorization server supports.
    std::string token_endpoint_auth_method;
    /// The redirect URI it was registered with ("" when not registered by this client).
    std::string redirect_uri;
};

/// The tokens held for one protected resource, as the token endpoint gave them.
struct MCP_API Tokens {
    std::string access_token;  ///< Sent as `Authorization: Bearer` with each request.
    std::string token_type = "Bearer";  ///< The token type the server named.
    std::string refresh_token;  ///< Trades for new tokens when these expire; "" when none was issued.
    /// The scopes granted (the token response's `scope`, else those requested), space-separated.
    std::string scope;
    /// Seconds since the epoch; 0 when the server did not say.
    std::int64_t expires_at = 0;
    /// When they were issued (seconds since the epoch): a short-lived token is refreshed later
    /// in its life than a long-lived one.
    std::int64_t obtained_at = 0;
};

/// Where an OAuth client keeps the credentials each authorization server issued it (by issuer) and
/// the tokens it holds for each protected resource (by issuer and resource).
class MCP_API TokenStore {
public:
    virtual ~TokenStore() = default;
    /// The tokens held for `resource` from `issuer`, or nothing.
    virtual std::optional<Tokens> tokens(const std::string& issuer, const std::string& resource) = 0;
    /// Stores (or replaces) the tokens for `resource` from `issuer`.
    virtual void save_tokens(const std::string& issuer, const std::string& resource, const Tokens& tokens) = 0;
    /// Drops the tokens for `resource` from `issuer` (refused or revoked ones).
    virtual void forget_tokens(const std::string& issuer, const std::string& resource) = 0;
    /// The credentials `issuer` issued this client, or nothing.
    virtual std::optional<ClientCredentials> client(const std::string& issuer) = 0;
    /// Stores (or replaces) the credentials `issuer` issued this client.
    virtual void save_client(const std::string& issuer, const ClientCredentials& client) = 0;
    /// Drops the credentials `issuer` issued; the built-in stores drop that issuer's tokens with them.
    virtual void forget_client(const std::string& issuer) = 0;
};

/// Kept in memory: gone when the process ends.
MCP_API std::shared_ptr<TokenStore> make_memory_token_store();

/// Kept in a JSON file readable by its owner only (mode 0600, its folder 0700), rewritten whole
/// and atomically on each change. A file that cannot be read is reported, not overwritten.
/// Throws std::runtime_error naming the file and what is wrong.
MCP_API std::shared_ptr<TokenStore> make_file_token_store(std::filesystem::path file);

/// $XDG_CONFIG_HOME/mcpkit/oauth.json, or ~/.config/mcpkit/oauth.json (HOME, else the user's home
/// directory from the password database). Throws std::runtime_error when there is neither.
MCP_API std::filesystem::path default_token_file();

}  // namespace mcp::auth
