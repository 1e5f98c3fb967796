// JWT access tokens (RFC 9068) checked against the issuer's JWKS. The keys are fetched at the
// first token, then again when a token names a key id not seen yet (the issuer rotated its keys),
// but not within min_refetch_interval of the last fetch, so that made-up key ids cannot make us
// hammer the issuer.

#include "auth/AuthorizationDiscovery.hpp"
#include "auth/JsonDocument.hpp"
#include "auth/JsonWebKey.hpp"
#include "auth/TokenClaims.hpp"
#include "mcp/auth/OAuthClient.hpp"
#include "mcp/auth/ResourceServer.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <mutex>

namespace mcp::auth {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

using KeySet = std::vector<PublicKey>;

json::object decode_part(std::string_view part, std::string_view what) {
    auto bytes = base64url_decode(part);
    if (!bytes) throw InvalidTokenError("the token's " + std::string(what) + " is not Base64url");
    boost::system::error_code ec;
    json::value value = json::parse(*bytes, ec);
    if (ec || !value.is_object()) throw InvalidTokenError("the token's " + std::string(what) + " is not a JSON object");
    return std::move(value.as_object());
}

class JwtVerifier final : public TokenVerifier, public std::enable_shared_from_this<JwtVerifier> {
public:
    JwtVerifier(asio::any_io_executor executor, JwtVerifierOptions options)
        : strand_(asio::make_strand(executor)), options_(std::move(options)), http_(strand_, options_.http) {
        if (options_.issuer.empty() && options_.jwks_url.empty())
            throw std::invalid_argument("a JWT verifier needs the issuer (or at least the JWKS URL)");
    }

    asio::awaitable<AccessToken> verify(std::string token) override {
        auto self = shared_from_this();
        auto first_dot = token.find('.');
        auto second_dot = first_dot == std::string::npos ? first_dot : token.find('.', first_dot + 1);
        if (second_dot == std::string::npos || token.find('.', second_dot + 1) != std::string::npos)
            throw InvalidTokenError("the token is not a JWT (three dot-separated parts)");
        std::string_view text(token);
        auto header = decode_part(text.substr(0, first_dot), "header");
        auto claims = decode_part(text.substr(first_dot + 1, second_dot - first_dot - 1), "payload");
        auto signature = base64url_decode(text.substr(second_dot + 1));
        if (!signature) throw InvalidTokenError("the token's signature is not Base64url");
        std::string alg = header.contains("alg") && header.at("alg").is_string() ? std::string(header.at("alg").get_string()) : "";
        if (std::find(options_.algorithms.begin(), options_.algorithms.end(), alg) == options_.algorithms.end())
            throw InvalidTokenError("the token is signed with " + (alg.empty() ? "no algorithm" : alg) +
                                    ", which is not accepted here");
        // RFC 7515 §4.1.11: a "crit" header names extensions the recipient must understand, and
        // this verifier understands none, so any "crit" (even a malformed one) is refused.
        if (header.contains("crit"))
            throw InvalidTokenError("the token's header lists critical extensions (crit) this server does not "
                                    "understand");
        std::string kid = header.contains("kid") && header.at("kid").is_string() ? std::string(header.at("kid").get_string()) : "";

        auto keys = current_keys();
        const PublicKey* key = find_key(*keys, kid, alg);
        if (!key) {
            keys = co_await asio::co_spawn(strand_, refetch_keys(kid), asio::use_awaitable);
            key = find_key(*keys, kid, alg);
        }
        if (!key)
            throw InvalidTokenError("the token is signed with a key the issuer does not publish (key id " +
                                    (kid.empty() ? "none" : kid) + ")");
        if (!verify_jws_signature(*key, alg, text.substr(0, second_dot), *signature))
            throw InvalidTokenError("the token's signature does not verify");
        AccessToken access = access_token_from_claims(std::move(claims));
        check_claims(access, options_.issuer, options_.audience, options_.leeway, true);
        co_return access;
    }

private:
    static const PublicKey* find_key(const KeySet& keys, const std::string& kid, const std::string& alg) {
        for (const auto& key : keys) {
            if (!kid.empty() && key.kid != kid) continue;
            if (!key.alg.empty() && key.alg != alg) continue;
            return &key;
        }
        return nullptr;
    }

    std::shared_ptr<const KeySet> current_keys() {
        std::lock_guard lock(mutex_);
        return keys_ ? keys_ : std::make_shared<const KeySet>();
    }

    /// On the strand: fetches the key set, or again for a key id it lacks (at most once per
    /// min_refetch_interval). One fetch at a time: concurrent callers wait for it. Until a fetch
    /// has succeeded, a failure throws (the request gets 503, not a 401 for a good token).
    asio::awaitable<std::shared_ptr<const KeySet>> refetch_keys(std::string kid) {
        auto self = shared_from_this();
        if (fetching_) {
            auto waiter = std::make_shared<asio::steady_timer>(strand_, asio::steady_timer::time_point::max());
            waiters_.push_back(waiter);
            co_await waiter->async_wait(asio::as_tuple(asio::use_awaitable));
            if (!fetched_ok_) throw std::runtime_error("the issuer's keys cannot be fetched now");
            co_return current_keys();
        }
        auto keys = current_keys();
        if (!kid.empty() && find_key(*keys, kid, "")) co_return keys;
        auto now = std::chrono::steady_clock::now();
        if (fetched_ok_) {
            // A refetch for an unknown key id: one per interval (the first one at once, so a key
            // the issuer just added is found).
            if (refetched_once_ && now - last_refetch_ < options_.min_refetch_interval) co_return keys;
            refetched_once_ = true;
            last_refetch_ = now;
        }
        fetching_ = true;
        std::exception_ptr failure;
        try {
            auto fresh = co_await fetch_keys();
            std::lock_guard lock(mutex_);
            keys_ = std::move(fresh);
            fetched_ok_ = true;
        } catch (...) {
            failure = std::current_exception();
        }
        fetching_ = false;
        for (auto& waiter : waiters_) waiter->cancel();
        waiters_.clear();
        if (failure && !fetched_ok_) std::rethrow_exception(failure);
        co_return current_keys();
    }

    asio::awaitable<std::shared_ptr<const KeySet>> fetch_keys() {
        if (options_.jwks_url.empty()) {
            HttpClient& http = http_;
            DiscoveryLog quiet;  // a named value: g++ 12 mishandles temporaries inside co_await
            auto metadata = co_await discover_authorization_server(http, options_.issuer, quiet);
            if (metadata.jwks_uri.empty())
                throw std::runtime_error("the authorization server " + options_.issuer + " publishes no jwks_uri");
            options_.jwks_url = metadata.jwks_uri;
        }
        HttpRequest request{.method = "GET", .url = options_.jwks_url, .headers = {{"Accept", "application/json"}}};
        auto response = co_await http_.send(std::move(request));
        if (response.status != 200)
            throw std::runtime_error("the JWKS at " + options_.jwks_url + " answered HTTP " + std::to_string(response.status));
        auto document = parse_json_document(response.body, "the JWKS at " + options_.jwks_url);
        auto fresh = std::make_shared<KeySet>();
        if (auto* list = document.if_contains("keys"); list && list->is_array())
            for (const auto& jwk : list->get_array())
                if (jwk.is_object())
                    if (auto key = public_key_from_jwk(jwk.get_object())) fresh->push_back(std::move(*key));
        co_return fresh;
    }

    asio::strand<asio::any_io_executor> strand_;
    JwtVerifierOptions options_;
    HttpClient http_;
    std::mutex mutex_;
    std::shared_ptr<const KeySet> keys_;
    // On the strand only.
    std::chrono::steady_clock::time_point last_refetch_{};
    bool refetched_once_ = false;
    bool fetched_ok_ = false;
    bool fetching_ = false;
    std::vector<std::shared_ptr<asio::steady_timer>> waiters_;
};

}  // namespace

std::shared_ptr<TokenVerifier> make_jwt_verifier(asio::any_io_executor executor, JwtVerifierOptions options) {
    return std::make_shared<JwtVerifier>(executor, std::move(options));
}

}  // namespace mcp::auth
