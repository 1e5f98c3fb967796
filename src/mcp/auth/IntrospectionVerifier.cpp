// Tokens checked by asking the authorization server (RFC 7662). An answer is kept until the
// token expires (at most max_cache), under the SHA-256 of the token, so a busy client costs one
// introspection per token, and the cache holds no token.

#include "auth/AuthorizationDiscovery.hpp"
#include "auth/JsonDocument.hpp"
#include "auth/OAuthEncoding.hpp"
#include "auth/TokenClaims.hpp"
#include "mcp/auth/OAuthClient.hpp"
#include "mcp/auth/ResourceServer.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <map>
#include <mutex>

namespace mcp::auth {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// Bounds the cache: beyond it, expired answers go first, then everything.
constexpr std::size_t max_cached_tokens = 10000;

class IntrospectionVerifier final : public TokenVerifier, public std::enable_shared_from_this<IntrospectionVerifier> {
public:
    IntrospectionVerifier(asio::any_io_executor executor, IntrospectionVerifierOptions options)
        : strand_(asio::make_strand(executor)), options_(std::move(options)), http_(strand_, options_.http) {
        if (options_.introspection_endpoint.empty() && options_.issuer.empty())
            throw std::invalid_argument("an introspection verifier needs the endpoint or the issuer");
    }

    asio::awaitable<AccessToken> verify(std::string token) override {
        auto self = shared_from_this();
        std::string key = sha256_base64url(token);  // never the token itself
        if (auto cached = lookup(key)) {
            // A refused token stays refused a while: made-up tokens cannot each cost a round trip.
            if (!cached->refusal.empty()) throw InvalidTokenError(cached->refusal);
            check_claims(cached->token, options_.issuer, options_.audience, std::chrono::seconds(0), false);
            co_return cached->token;
        }
        AccessToken access;
        try {
            access = co_await asio::co_spawn(strand_, introspect(std::move(token)), asio::use_awaitable);
        } catch (const InvalidTokenError& e) {
            remember_refusal(key, e.what());
            throw;
        }
        check_claims(access, options_.issuer, options_.audience, std::chrono::seconds(0), false);
        remember(key, access);
        co_return access;
    }

private:
    struct Cached {
        AccessToken token;
        std::string refusal;  ///< why an inactive token was refused
        std::int64_t until = 0;
    };

    std::optional<Cached> lookup(const std::string& key) {
        std::lock_guard lock(mutex_);
        auto found = cache_.find(key);
        if (found == cache_.end()) return std::nullopt;
        if (found->second.until <= seconds_since_epoch()) {
            cache_.erase(found);
            return std::nullopt;
        }
        return found->second;
    }

    void remember_refusal(const std::string& key, std::string refusal) {
        std::int64_t now = seconds_since_epoch();
        std::lock_guard lock(mutex_);
        make_room(now);
        cache_[key] = Cached{{}, std::move(refusal), now + 30};
    }

    void make_room(std::int64_t now) {
        if (cache_.size() < max_cached_tokens) return;
        std::erase_if(cache_, [&](const auto& entry) { return entry.second.until <= now; });
        if (cache_.size() >= max_cached_tokens) cache_.clear();
    }

    void remember(const std::string& key, const AccessToken& token) {
        std::int64_t now = seconds_since_epoch();
        std::int64_t until = now + options_.max_cache.count();
        if (token.expires_at != 0) until = std::min(until, token.expires_at);
        std::lock_guard lock(mutex_);
        make_room(now);
        cache_[key] = Cached{token, {}, until};
    }

    /// On the strand.
    asio::awaitable<AccessToken> introspect(std::string token) {
        auto self = shared_from_this();
        if (options_.introspection_endpoint.empty()) {
            HttpClient& http = http_;
            DiscoveryLog quiet;  // a named value: g++ 12 mishandles temporaries inside co_await
            auto metadata = co_await discover_authorization_server(http, options_.issuer, quiet);
            if (metadata.introspection_endpoint.empty())
                throw std::runtime_error("the authorization server " + options_.issuer +
                                         " publishes no introspection_endpoint");
            options_.introspection_endpoint = metadata.introspection_endpoint;
        }
        std::vector<std::pair<std::string, std::string>> headers{
            {"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
        if (!options_.client_id.empty())
            headers.emplace_back("Authorization", basic_authorization(options_.client_id, options_.client_secret));
        HttpRequest request{.method = "POST",
                            .url = options_.introspection_endpoint,
                            .headers = std::move(headers),
                            .body = form_encode({{"token", token}, {"token_type_hint", "access_token"}})};
        auto response = co_await http_.send(std::move(request));
        if (response.status != 200)
            throw std::runtime_error("the introspection endpoint " + options_.introspection_endpoint + " answered HTTP " +
                                     std::to_string(response.status));
        auto answer = parse_json_document(response.body, "the introspection answer of " + options_.introspection_endpoint, true);
        auto* active = answer.if_contains("active");
        if (!active || !active->is_bool() || !active->get_bool())
            throw InvalidTokenError("the authorization server says the token is not active");
        co_return access_token_from_claims(std::move(answer));
    }

    asio::strand<asio::any_io_executor> strand_;
    IntrospectionVerifierOptions options_;
    HttpClient http_;
    std::mutex mutex_;
    std::map<std::string, Cached> cache_;
};

}  // namespace

std::shared_ptr<TokenVerifier> make_introspection_verifier(asio::any_io_executor executor,
                                                           IntrospectionVerifierOptions options) {
    return std::make_shared<IntrospectionVerifier>(executor, std::move(options));
}

}  // namespace mcp::auth
