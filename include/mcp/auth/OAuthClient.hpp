#pragma once
// OAuth 2.1 for the client side of MCP (the spec's authorization pages, 2025-06-18 onwards, and
// the 2025-03-26 fallbacks): give it to the Streamable HTTP client transport and a protected
// server's 401 starts the authorization code flow.
//
//   mcp::auth::OAuthClientOptions oauth;
//   oauth.prompt = mcp::auth::make_loopback_browser_prompt(executor);  // or your UI's
//   oauth.store = mcp::auth::make_file_token_store(mcp::auth::default_token_file());
//   http_options.authorization = mcp::auth::OAuthClient::create(executor, server_url, oauth);
//
// What it does, in the spec's order:
// - discovery: the 401's WWW-Authenticate `resource_metadata`, else the path-aware then the root
//   protected resource metadata URL (RFC 9728), whose `resource` must be the server's; then the
//   authorization server's metadata (RFC 8414, then OpenID Connect discovery), whose `issuer`
//   must be the one asked for, character for character;
// - registration: a pre-registered client, else a Client ID Metadata Document URL when the
//   server supports them, else Dynamic Client Registration (RFC 7591, `application_type`);
// - authorization: PKCE S256 (a server that does not advertise it is refused), `state`,
//   RFC 8707 `resource`, scopes from the challenge, else `scopes_supported`, else none, plus
//   `offline_access` when the server offers it; the response's `iss` checked (RFC 9207);
// - tokens: client_secret_basic, client_secret_post or none at the token endpoint; refreshed
//   silently before they expire; step-up on 403 insufficient_scope with the union of the scopes
//   held and those asked for, a bounded number of times.

#include "mcp/Export.hpp"
#include "mcp/auth/TokenStore.hpp"
#include "mcp/transport/HttpAuthorization.hpp"
#include "mcp/transport/HttpClient.hpp"

#include <boost/asio/any_io_executor.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::auth {

/// Authorization failed in a way the user must hear about (a refused or inconsistent server, a
/// denied consent, a state or issuer that does not match).
class MCP_API AuthorizationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The person's side of the flow: shows them the authorization URL and hands back the URL their
/// browser was redirected to (with `code`, `state` and maybe `iss`).
class MCP_API AuthorizationPrompt {
public:
    virtual ~AuthorizationPrompt() = default;
    /// Where the authorization server is to send the browser back; registered with it.
    virtual boost::asio::awaitable<std::string> redirect_uri() = 0;
    /// Shows `authorization_url` and waits for the redirect; throws AuthorizationError when the
    /// person gave up or the wait timed out.
    virtual boost::asio::awaitable<std::string> authorize(std::string authorization_url) = 0;
};

/// How an OAuthClient asks the person, where it keeps tokens, and how it registers.
struct MCP_API OAuthClientOptions {
    /// Shows the person the authorization page; without one, a server that needs authorization
    /// fails.
    std::shared_ptr<AuthorizationPrompt> prompt;
    /// Default: a memory store.
    std::shared_ptr<TokenStore> store;
    /// A client registered beforehand, used with whatever authorization server the resource names.
    std::optional<ClientCredentials> client;
    /// An https URL serving this client's metadata document; used as client_id by servers that
    /// support Client ID Metadata Documents. "" for none.
    std::string client_metadata_url;
    /// Dynamic Client Registration.
    std::string client_name = "mcpkit";
    /// The registration's `application_type`: "native" for a program on the user's machine.
    std::string application_type = "native";
    /// Ask for refresh tokens (grant type refresh_token; `offline_access` where offered).
    bool refresh_tokens = true;
    HttpClientOptions http;  ///< For discovery, registration and token requests: proxy, trust, timeouts.
    /// What happened, for a log (never a token or a secret).
    std::function<void(std::string_view)> log;
};

/// OAuth 2.1 for the client side of MCP, as the Streamable HTTP client's HttpAuthorization: a
/// protected server's 401 starts discovery, registration and the authorization code flow with PKCE;
/// tokens are stored, refreshed before they expire and stepped up on 403 insufficient_scope.
class MCP_API OAuthClient : public HttpAuthorization {
public:
    /// `resource_url`: the MCP endpoint the tokens are for.
    static std::shared_ptr<OAuthClient> create(boost::asio::any_io_executor executor, std::string resource_url,
                                               OAuthClientOptions options);
};

/// For people at a terminal: serves the redirect on 127.0.0.1 (RFC 8252), prints the
/// authorization URL to stderr and opens it in a browser when one is available ($BROWSER, or
/// xdg-open with a display). Waits up to `timeout` for the redirect.
MCP_API std::shared_ptr<AuthorizationPrompt> make_loopback_browser_prompt(boost::asio::any_io_executor executor,
                                                                  std::chrono::seconds timeout = std::chrono::minutes(5));

}  // namespace mcp::auth
