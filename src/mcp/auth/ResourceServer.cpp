// The protected resource: its metadata document (RFC 9728), and the verdict on each request's
// bearer token with the WWW-Authenticate answers of RFC 6750 §3 and the MCP authorization spec.

#include "mcp/auth/ResourceServer.hpp"

#include "auth/Scopes.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

namespace mcp::auth {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// A quoted-string for a header parameter. Descriptions may quote what a token said: only
/// printable ASCII passes (RFC 6750 §3), and at most 300 characters of it.
std::string quoted(std::string_view text) {
    std::string out = "\"";
    for (char c : text.substr(0, 300)) {
        if (c < 0x20 || c > 0x7e) c = '?';
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string error_json(std::string_view error, std::string_view description) {
    return json::serialize(json::object{{"error", error}, {"error_description", description}});
}

json::array to_array(const std::vector<std::string>& items) {
    json::array out;
    for (const auto& item : items) out.emplace_back(item);
    return out;
}

class Protected final : public ResourceServer {
public:
    explicit Protected(ResourceServerOptions options) : options_(std::move(options)) {
        if (!options_.verifier) throw std::invalid_argument("a resource server needs a token verifier");
        auto parsed = boost::urls::parse_absolute_uri(options_.resource);
        if (!parsed || (parsed->scheme() != "http" && parsed->scheme() != "https") || !parsed->has_authority() ||
            parsed->has_fragment())
            throw std::invalid_argument("the resource \"" + options_.resource +
                                        "\" must be the absolute http(s) URL of the MCP endpoint, without a fragment");
        std::string path(parsed->encoded_path());
        while (!path.empty() && path.back() == '/') path.pop_back();
        metadata_path_ = "/.well-known/oauth-protected-resource" + path;
        metadata_url_ = std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_host_and_port()) + metadata_path_;
        document_ = json::serialize(metadata());
    }

    json::object metadata() const override {
        json::object document{{"resource", options_.resource},
                              {"authorization_servers", to_array(options_.authorization_servers)},
                              {"bearer_methods_supported", json::array{"header"}}};
        if (!options_.scopes_supported.empty()) document["scopes_supported"] = to_array(options_.scopes_supported);
        if (!options_.resource_name.empty()) document["resource_name"] = options_.resource_name;
        return document;
    }

    const std::string& metadata_path() const override { return metadata_path_; }

    std::optional<std::string> document(std::string_view path) const override {
        if (path == metadata_path_) return document_;
        return std::nullopt;
    }

    asio::awaitable<AuthorizationVerdict> authorize(std::string header) override {
        if (header.empty())
            co_return refuse(401, "", "", "This server needs an OAuth access token: send Authorization: Bearer TOKEN",
                             options_.required_scopes);
        std::string_view value(header);
        if (value.size() < 7 || !boost::beast::iequals(value.substr(0, 7), "Bearer ") ||
            value.find_first_not_of(' ', 7) == std::string_view::npos)
            co_return refuse(400, "invalid_request", "the Authorization header must be Bearer followed by the token", "",
                             options_.required_scopes);
        std::string token(value.substr(value.find_first_not_of(' ', 7)));
        AccessToken access;
        try {
            access = co_await options_.verifier->verify(std::move(token));
        } catch (const InvalidTokenError& e) {
            co_return refuse(401, "invalid_token", e.what(), "", options_.required_scopes);
        } catch (const std::exception& e) {
            // Not the client's fault: it may retry later with the same token.
            // The detail (internal URLs, errors) stays in the log.
            if (options_.log) options_.log(std::string("cannot check an access token: ") + e.what());
            co_return AuthorizationVerdict{
                503, "", error_json("temporarily_unavailable", "the access token cannot be checked now; retry shortly"),
                nullptr};
        }
        if (options_.check_audience &&
            std::find(access.audience.begin(), access.audience.end(), options_.resource) == access.audience.end())
            co_return refuse(401, "invalid_token", "the token is not for this resource (" + options_.resource + ")", "",
                             options_.required_scopes);
        if (!access.has_scopes(options_.required_scopes))
            co_return refuse(403, "insufficient_scope",
                             "this server needs the scopes " + join_scopes(options_.required_scopes), "",
                             options_.required_scopes);
        co_return AuthorizationVerdict{0, "", "", std::make_shared<AuthorizedOrigin>(std::move(access))};
    }

    AuthorizationVerdict require(const jsonrpc::MessageOrigin* origin,
                                 const std::vector<std::string>& scopes) const override {
        const AccessToken* token = access_token_of(origin);
        if (!token) return refuse(401, "", "", "This needs an OAuth access token", scopes);
        if (token->has_scopes(scopes)) return {};
        // Named with the scopes already held, so a client that does not add them keeps them.
        std::string wanted = union_of_scopes(join_scopes(token->scopes), join_scopes(scopes));
        return refuse(403, "insufficient_scope", "this needs the scopes " + join_scopes(scopes), "",
                      split_scopes(wanted));
    }

    std::string principal(const jsonrpc::MessageOrigin* origin) const override {
        const AccessToken* token = access_token_of(origin);
        if (!token) return {};
        return token->issuer + " " + (token->subject.empty() ? "client " + token->client_id : token->subject);
    }

private:
    /// A refusal: `error` "" for a request that had no credentials (RFC 6750 §3.1).
    AuthorizationVerdict refuse(int status, std::string_view error, std::string_view description,
                                std::string_view body_description, const std::vector<std::string>& scopes) const {
        std::string header = "Bearer resource_metadata=" + quoted(metadata_url_);
        if (!scopes.empty()) header += ", scope=" + quoted(join_scopes(scopes));
        if (!error.empty()) header += ", error=" + quoted(error);
        if (!description.empty()) header += ", error_description=" + quoted(description);
        if (options_.log && !error.empty())
            options_.log("refused a request (HTTP " + std::to_string(status) + ", " + std::string(error) + "): " +
                         quoted(description));
        std::string body = error.empty() ? error_json("unauthorized", body_description) : error_json(error, description);
        return AuthorizationVerdict{status, std::move(header), std::move(body), nullptr};
    }

    ResourceServerOptions options_;
    std::string metadata_path_;
    std::string metadata_url_;
    std::string document_;
};

}  // namespace

std::shared_ptr<ResourceServer> ResourceServer::create(ResourceServerOptions options) {
    return std::make_shared<Protected>(std::move(options));
}

}  // namespace mcp::auth
