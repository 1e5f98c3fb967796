// The OAuth 2.1 client: answers a protected server's 401 and 403 with the authorization code
// flow (discovery, registration, PKCE, the person's consent, the token exchange), keeps tokens
// fresh, and serializes all of it so concurrent refusals start one flow, not several.

#include "mcp/auth/OAuthClient.hpp"

#include "auth/AuthorizationDiscovery.hpp"
#include "auth/OAuthEncoding.hpp"
#include "auth/Scopes.hpp"
#include "auth/TokenEndpoint.hpp"
#include "auth/WwwAuthenticate.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <chrono>
#include <deque>

namespace mcp::auth {
namespace asio = boost::asio;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
/// A token this close to its expiry is refreshed before use (or half its life, if shorter).
constexpr std::int64_t refresh_margin_seconds = 60;

std::int64_t now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

bool expiring(const Tokens& tokens) {
    if (tokens.expires_at == 0) return false;
    std::int64_t margin = refresh_margin_seconds;
    if (tokens.obtained_at != 0) margin = std::min(margin, (tokens.expires_at - tokens.obtained_at) / 2);
    return tokens.expires_at - margin <= now_seconds();
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

/// What the authorization server sent the browser back with.
struct AuthorizationResponse {
    std::string code, state, error, error_description;
    std::optional<std::string> iss;
};

AuthorizationResponse read_redirect(std::string_view redirect) {
    auto parsed = boost::urls::parse_uri_reference(redirect);
    // Not quoted: it carries the authorization code.
    if (!parsed) throw AuthorizationError("the authorization redirect is not a URL");
    AuthorizationResponse response;
    for (auto param : parsed->params()) {
        if (param.key == "code") response.code = param.value;
        else if (param.key == "state") response.state = param.value;
        else if (param.key == "iss") response.iss = param.value;
        else if (param.key == "error") response.error = param.value;
        else if (param.key == "error_description") response.error_description = param.value;
    }
    return response;
}

class Client final : public OAuthClient, public std::enable_shared_from_this<Client> {
public:
    Client(asio::any_io_executor executor, std::string resource_url, OAuthClientOptions options)
        : executor_(executor),
          resource_url_(std::move(resource_url)),
          options_(std::move(options)),
          http_(executor, options_.http) {
        if (!options_.store) options_.store = make_memory_token_store();
        log_ = [this](std::string_view message) {
            if (options_.log) options_.log(message);
        };
    }

    asio::awaitable<std::string> authorization_header() override {
        auto self = shared_from_this();
        if (tokens_ && expiring(*tokens_) && !tokens_->refresh_token.empty()) {
            co_await lock();
            Unlock unlock{*this};
            if (tokens_ && expiring(*tokens_)) {
                try {
                    co_await refresh();
                } catch (const std::exception& e) {
                    // The token may still be good for a while; the server will say if not.
                    log_(std::string("could not refresh the access token yet: ") + e.what());
                }
            }
        }
        co_return header();
    }

    asio::awaitable<bool> answer_challenge(HttpChallenge challenge) override {
        auto self = shared_from_this();
        co_await lock();
        Unlock unlock{*this};
        // Another request's challenge got a new token meanwhile: try with that.
        if (!header().empty() && header() != challenge.sent_authorization) co_return true;

        auto bearer = bearer_challenge(challenge.www_authenticate);
        auto parameter = [&](std::string_view name) {
            return bearer ? bearer->parameter(name).value_or("") : std::string();
        };
        std::string error = parameter("error");
        if (challenge.status == 403 && error != "insufficient_scope") {
            log_("HTTP 403 without error=\"insufficient_scope\": not something a new token would change");
            co_return false;
        }
        bool step_up = challenge.status == 403;
        if (!step_up && tokens_ && !challenge.sent_authorization.empty()) {
            // The token was refused. A refresh may do, unless it is the refreshed one that failed.
            bool refreshed_one_refused = challenge.sent_authorization == refreshed_header_;
            if (!refreshed_one_refused && !tokens_->refresh_token.empty()) {
                bool refreshed = co_await refresh();  // alone: g++ 12 miscompiles co_await inside &&
                if (refreshed) co_return true;
            }
            drop_tokens();
        }
        co_await authorize(parameter("resource_metadata"), parameter("scope"), step_up, challenge.sent_authorization);
        co_return true;
    }

private:
    // ---- one flow at a time ----

    struct Unlock {
        Client& client;
        ~Unlock() { client.unlock(); }
    };

    asio::awaitable<void> lock() {
        while (busy_) {
            auto wake = std::make_shared<asio::steady_timer>(executor_, asio::steady_timer::time_point::max());
            waiting_.push_back(wake);
            co_await wake->async_wait(use_tuple);
        }
        busy_ = true;
    }

    void unlock() {
        busy_ = false;
        for (auto& wake : waiting_) wake->cancel();
        waiting_.clear();
    }

    std::string header() const { return tokens_ ? "Bearer " + tokens_->access_token : std::string(); }

    std::string store_key() const { return resource_.empty() ? resource_url_ : resource_; }

    /// Forgets our tokens, in the store too unless another process replaced them meanwhile.
    void drop_tokens() {
        if (!issuer_.empty() && tokens_) {
            auto stored = options_.store->tokens(issuer_, store_key());
            if (stored && stored->access_token == tokens_->access_token) options_.store->forget_tokens(issuer_, store_key());
        }
        tokens_.reset();
    }

    // ---- refresh ----

    /// Trades the refresh token for new tokens. False, with the tokens dropped, when the server
    /// says the grant is gone (invalid_grant); a server that cannot be reached throws, and the
    /// tokens are kept for a later try.
    asio::awaitable<bool> refresh() {
        if (!tokens_ || tokens_->refresh_token.empty() || !server_) co_return false;
        if (!client_) client_ = known_client(*server_);
        if (!client_) co_return false;
        // Another process sharing the store may have refreshed already (a rotated refresh token
        // would make ours invalid): take its tokens instead.
        if (auto stored = options_.store->tokens(issuer_, store_key());
            stored && stored->access_token != tokens_->access_token && !expiring(*stored)) {
            tokens_ = std::move(stored);
            refreshed_header_ = header();
            co_return true;
        }
        FormFields fields{{"grant_type", "refresh_token"}, {"refresh_token", tokens_->refresh_token}};
        if (!resource_.empty()) fields.emplace_back("resource", resource_);
        try {
            Tokens fresh = co_await request_tokens(http_, *server_, *client_, std::move(fields), tokens_->scope);
            // A server may keep the refresh token and not send it again.
            if (fresh.refresh_token.empty()) fresh.refresh_token = tokens_->refresh_token;
            tokens_ = std::move(fresh);
            options_.store->save_tokens(issuer_, store_key(), *tokens_);
            refreshed_header_ = header();
            log_("access token refreshed");
            co_return true;
        } catch (const TokenRequestRefused& e) {
            if (e.error != "invalid_grant") throw;
            log_(std::string("the refresh token was refused: ") + e.what());
        }
        drop_tokens();
        co_return false;
    }

    // ---- the authorization code flow ----

    asio::awaitable<void> authorize(std::string announced, std::string challenged_scope, bool step_up,
                                    std::string refused_header) {
        auto metadata = co_await discover_protected_resource(http_, resource_url_, announced, log_);
        AuthorizationServerMetadata server;
        std::string resource;
        if (metadata) {
            const std::string& issuer = metadata->authorization_servers.front();
            server = co_await discover_authorization_server(http_, issuer, log_);
            resource = metadata->resource;
        } else {
            log_("the server publishes no protected resource metadata: using the 2025-03-26 discovery");
            server = co_await legacy_authorization_server(http_, resource_url_, log_);
        }
        if (!server.assumed && !contains(server.code_challenge_methods_supported, "S256"))
            throw AuthorizationError("the authorization server " + server.issuer +
                                     " does not advertise PKCE with S256 (code_challenge_methods_supported); the MCP "
                                     "specification requires refusing it");
        if (!issuer_.empty() && issuer_ != server.issuer) {
            log_("the resource moved from the authorization server " + issuer_ + " to " + server.issuer);
            tokens_.reset();
            client_.reset();
        }
        issuer_ = server.issuer;
        resource_ = resource;
        server_ = server;

        // Scopes: the challenge's, else all the resource supports, else none; plus those held
        // already (a step-up must not lose them, SEP-2350).
        std::string scope = !challenged_scope.empty()          ? challenged_scope
                            : metadata                         ? join_scopes(metadata->scopes_supported)
                                                               : std::string();
        scope = union_of_scopes(tokens_ ? tokens_->scope : granted_scope_, scope);
        if (options_.refresh_tokens && !scope.empty() && contains(server.scopes_supported, "offline_access"))
            scope = union_of_scopes(scope, "offline_access");

        // Tokens kept from an earlier run: used as they are, or refreshed, before asking anyone.
        if (auto stored = options_.store->tokens(issuer_, store_key());
            !step_up && stored && "Bearer " + stored->access_token != refused_header &&
            scopes_cover(stored->scope, scope)) {
            if (!expiring(*stored)) {
                log_("using the stored access token for " + store_key());
                tokens_ = std::move(stored);
                client_ = known_client(server);  // to refresh it later
                co_return;
            }
            if (auto known = known_client(server); known && !stored->refresh_token.empty()) {
                tokens_ = std::move(stored);
                client_ = std::move(known);
                bool refreshed = co_await refresh();  // alone: g++ 12 and co_await in a condition
                if (refreshed) co_return;
            }
        }

        if (!options_.prompt) throw AuthorizationError("the server requires authorization, and no authorization prompt was given");
        std::string redirect_uri = co_await options_.prompt->redirect_uri();
        ClientCredentials client = co_await client_for(server, redirect_uri);
        client_ = client;

        std::string verifier = random_token(32);
        std::string state = random_token(16);
        boost::urls::url url(boost::urls::parse_absolute_uri(server.authorization_endpoint).value());
        auto params = url.params();
        params.append({"response_type", "code"});
        params.append({"client_id", client.client_id});
        params.append({"redirect_uri", redirect_uri});
        params.append({"code_challenge", pkce_s256_challenge(verifier)});
        params.append({"code_challenge_method", "S256"});
        params.append({"state", state});
        if (!scope.empty()) params.append({"scope", scope});
        // OpenID Connect honours offline_access only with prompt=consent (Core §11).
        if (contains(split_scopes(scope), "offline_access")) params.append({"prompt", "consent"});
        if (!resource.empty()) params.append({"resource", resource});
        log_("authorization needed at " + server.issuer + (scope.empty() ? "" : " for the scopes \"" + scope + "\""));

        std::string redirect = co_await options_.prompt->authorize(std::string(url.buffer()));
        auto response = read_redirect(redirect);
        if (!response.error.empty())
            throw AuthorizationError("the authorization server refused: " + response.error +
                                     (response.error_description.empty() ? "" : " (" + response.error_description + ")"));
        if (response.state != state)
            throw AuthorizationError("the redirect's state does not match the request's: a forged or stale redirect");
        // RFC 9207: a present iss must be the issuer, compared as strings; a server that promised
        // iss must send it.
        if (response.iss && *response.iss != server.issuer)
            throw AuthorizationError("the redirect names the issuer \"" + *response.iss + "\", not \"" + server.issuer +
                                     "\": a mix-up attack or a misconfigured server (RFC 9207)");
        if (!response.iss && server.iss_parameter_supported)
            throw AuthorizationError("the authorization server " + server.issuer +
                                     " promised an iss parameter in its redirect and sent none (RFC 9207)");
        if (response.code.empty()) throw AuthorizationError("the redirect carries no authorization code");

        FormFields fields{{"grant_type", "authorization_code"},
                          {"code", response.code},
                          {"redirect_uri", redirect_uri},
                          {"code_verifier", verifier}};
        if (!resource.empty()) fields.emplace_back("resource", resource);
        tokens_ = co_await request_tokens(http_, server, client, std::move(fields), scope);
        granted_scope_ = tokens_->scope;
        refreshed_header_.clear();
        options_.store->save_tokens(issuer_, store_key(), *tokens_);
        log_("authorized by " + server.issuer + (tokens_->scope.empty() ? "" : " with \"" + tokens_->scope + "\""));
    }

    /// Who this client already is to `server`, without registering: pre-registered, registered
    /// before, or a metadata document URL.
    std::optional<ClientCredentials> known_client(const AuthorizationServerMetadata& server) {
        if (options_.client) return options_.client;
        if (auto stored = options_.store->client(server.issuer)) return stored;
        if (!options_.client_metadata_url.empty() && server.client_id_metadata_document_supported)
            return ClientCredentials{options_.client_metadata_url, "", "none", ""};
        return std::nullopt;
    }

    /// Who this client is to `server` for a flow redirected to `redirect_uri`: known already
    /// (registered with that redirect URI, if registered by us), or registered now.
    asio::awaitable<ClientCredentials> client_for(const AuthorizationServerMetadata& server,
                                                  const std::string& redirect_uri) {
        if (auto known = known_client(server);
            known && (known->redirect_uri.empty() || known->redirect_uri == redirect_uri))
            co_return *known;
        if (server.registration_endpoint.empty())
            throw AuthorizationError("the authorization server " + server.issuer +
                                     " offers neither Dynamic Client Registration nor Client ID Metadata Documents: "
                                     "register a client with it and give its id (--client-id)");
        RegistrationRequest registration{options_.client_name, options_.application_type, redirect_uri,
                                         options_.refresh_tokens};
        ClientCredentials client = co_await register_client(http_, server, std::move(registration));
        client.redirect_uri = redirect_uri;
        options_.store->save_client(server.issuer, client);
        log_("registered with " + server.issuer + " as client " + client.client_id);
        co_return client;
    }

    asio::any_io_executor executor_;
    std::string resource_url_;
    OAuthClientOptions options_;
    HttpClient http_;
    std::function<void(std::string_view)> log_;

    bool busy_ = false;
    std::deque<std::shared_ptr<asio::steady_timer>> waiting_;

    std::string issuer_;
    std::string resource_;  ///< the metadata's resource; "" for a 2025-03-26 server
    std::optional<AuthorizationServerMetadata> server_;
    std::optional<ClientCredentials> client_;
    std::optional<Tokens> tokens_;
    std::string granted_scope_;
    std::string refreshed_header_;
};

}  // namespace

std::shared_ptr<OAuthClient> OAuthClient::create(asio::any_io_executor executor, std::string resource_url,
                                                 OAuthClientOptions options) {
    return std::make_shared<Client>(executor, std::move(resource_url), std::move(options));
}

}  // namespace mcp::auth
