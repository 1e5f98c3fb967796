#include "mcp/transport/BearerSecretAuthorizer.hpp"

#include "transport/http/HttpErrors.hpp"

#include <algorithm>
#include <cctype>

namespace mcp {

bool same_secret(std::string_view given, std::string_view expected) {
    if (given.size() != expected.size()) return false;
    unsigned char difference = 0;
    for (std::size_t i = 0; i < given.size(); ++i) difference |= static_cast<unsigned char>(given[i] ^ expected[i]);
    return difference == 0;
}

namespace {

class BearerSecretAuthorizer final : public HttpRequestAuthorizer {
public:
    BearerSecretAuthorizer(std::string secret, std::string hint) : secret_(std::move(secret)), hint_(std::move(hint)) {}

    std::optional<std::string> document(std::string_view) const override { return std::nullopt; }

    boost::asio::awaitable<AuthorizationVerdict> authorize(std::string header) override {
        AuthorizationVerdict verdict;
        std::string_view value(header);
        constexpr std::string_view scheme = "Bearer ";
        bool bearer = value.size() > scheme.size() &&
                      std::equal(scheme.begin(), scheme.end(), value.begin(),
                                 [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) ==
                                                             std::tolower(static_cast<unsigned char>(b)); });
        if (bearer && same_secret(value.substr(scheme.size()), secret_)) co_return verdict;
        verdict.status = 401;
        verdict.www_authenticate = value.empty() ? "Bearer realm=\"mcpkit\"" : "Bearer realm=\"mcpkit\", error=\"invalid_token\"";
        verdict.body = http::error_body(jsonrpc::RequestId(), -32001,
                                        std::string(value.empty() ? "This server needs Authorization: Bearer <secret>"
                                                                  : "The bearer secret is wrong") +
                                            "; " + hint_);
        co_return verdict;
    }

    AuthorizationVerdict require(const jsonrpc::MessageOrigin*, const std::vector<std::string>&) const override {
        return {};
    }

    std::string principal(const jsonrpc::MessageOrigin*) const override { return {}; }

private:
    std::string secret_;
    std::string hint_;
};

}  // namespace

std::shared_ptr<HttpRequestAuthorizer> make_bearer_secret_authorizer(std::string secret, std::string hint) {
    return std::make_shared<BearerSecretAuthorizer>(std::move(secret), std::move(hint));
}

}  // namespace mcp
