#include "auth/TokenEndpoint.hpp"

#include "auth/JsonDocument.hpp"
#include "auth/OAuthEncoding.hpp"
#include "mcp/auth/OAuthClient.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace mcp::auth {
namespace json = boost::json;

namespace {

bool contains(const std::vector<std::string>& list, std::string_view item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

/// "invalid_grant: the code expired" from an OAuth error body, else the status and the body's start.
std::string describe_refusal(const HttpResponse& response) {
    boost::system::error_code ec;
    json::value body = json::parse(response.body, ec);
    if (!ec && body.is_object()) {
        auto& object = body.get_object();
        if (auto* error = object.if_contains("error"); error && error->is_string()) {
            std::string text(error->get_string());
            if (auto* description = object.if_contains("error_description"); description && description->is_string())
                text += ": " + std::string(description->get_string());
            return text + " (HTTP " + std::to_string(response.status) + ")";
        }
    }
    return "HTTP " + std::to_string(response.status);  // the body is not quoted: it may hold secrets
}

}  // namespace

boost::asio::awaitable<ClientCredentials> register_client(HttpClient& http, const AuthorizationServerMetadata& server,
                                                          RegistrationRequest request) {
    json::array grant_types{"authorization_code"};
    if (request.refresh_tokens) grant_types.emplace_back("refresh_token");
    // A native client keeps no secret safely; ask to be public where the server allows it.
    const auto& methods = server.token_endpoint_auth_methods_supported;
    std::string method = methods.empty() || contains(methods, "none") ? "none"
                         : contains(methods, "client_secret_basic") ? "client_secret_basic"
                                                                     : "client_secret_post";
    json::object body{{"client_name", request.client_name},
                      {"redirect_uris", json::array{json::string(request.redirect_uri)}},
                      {"grant_types", std::move(grant_types)},
                      {"response_types", json::array{"code"}},
                      {"token_endpoint_auth_method", method},
                      {"application_type", request.application_type}};
    HttpRequest post{.method = "POST",
                     .url = server.registration_endpoint,
                     .headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}},
                     .body = json::serialize(body)};
    HttpResponse response;
    try {
        response = co_await http.send(std::move(post));
    } catch (const HttpError& e) {
        throw AuthorizationError("cannot register at " + server.registration_endpoint + ": " + e.what());
    }
    if (response.status != 200 && response.status != 201)
        throw AuthorizationError("the registration endpoint " + server.registration_endpoint + " refused this client: " +
                                 describe_refusal(response));
    std::string where = "the registration response of " + server.registration_endpoint;
    auto document = parse_json_document(response.body, where, true);
    ClientCredentials client;
    client.client_id = required_string(document, "client_id", where);
    client.client_secret = optional_string(document, "client_secret", where);
    client.token_endpoint_auth_method = optional_string(document, "token_endpoint_auth_method", where);
    co_return client;
}

std::string token_endpoint_auth_method(const AuthorizationServerMetadata& server, const ClientCredentials& client) {
    if (!client.token_endpoint_auth_method.empty()) return client.token_endpoint_auth_method;
    if (client.client_secret.empty()) return "none";
    const auto& methods = server.token_endpoint_auth_methods_supported;
    if (methods.empty() || contains(methods, "client_secret_basic")) return "client_secret_basic";
    if (contains(methods, "client_secret_post")) return "client_secret_post";
    return "none";
}

boost::asio::awaitable<Tokens> request_tokens(HttpClient& http, const AuthorizationServerMetadata& server,
                                              const ClientCredentials& client, FormFields fields,
                                              std::string requested_scope) {
    std::vector<std::pair<std::string, std::string>> headers{
        {"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
    std::string method = token_endpoint_auth_method(server, client);
    if (method == "client_secret_basic") {
        headers.emplace_back("Authorization", basic_authorization(client.client_id, client.client_secret));
    } else {
        fields.emplace_back("client_id", client.client_id);
        if (method == "client_secret_post") fields.emplace_back("client_secret", client.client_secret);
    }
    HttpRequest post{.method = "POST", .url = server.token_endpoint, .headers = std::move(headers), .body = form_encode(fields)};
    HttpResponse response;
    try {
        response = co_await http.send(std::move(post));
    } catch (const HttpError& e) {
        throw AuthorizationError("cannot reach the token endpoint " + server.token_endpoint + ": " + e.what());
    }
    if (response.status != 200) {
        std::string error;
        boost::system::error_code ec;
        json::value body = json::parse(response.body, ec);
        if (!ec && body.is_object())
            if (auto* code = body.get_object().if_contains("error"); code && code->is_string()) error = code->get_string();
        throw TokenRequestRefused("the token endpoint " + server.token_endpoint + " refused: " + describe_refusal(response),
                                  error);
    }
    std::string where = "the token response of " + server.token_endpoint;
    auto document = parse_json_document(response.body, where, true);
    Tokens tokens;
    tokens.access_token = required_string(document, "access_token", where);
    tokens.token_type = required_string(document, "token_type", where);
    if (!boost::beast::iequals(tokens.token_type, "Bearer"))
        throw AuthorizationError(where + " issued a \"" + tokens.token_type +
                                 "\" token; only Bearer tokens are supported");
    tokens.refresh_token = optional_string(document, "refresh_token", where);
    tokens.scope = optional_string(document, "scope", where);
    if (tokens.scope.empty()) tokens.scope = requested_scope;
    tokens.obtained_at =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    if (auto expires_in = optional_number(document, "expires_in", where); expires_in && *expires_in > 0)
        tokens.expires_at = tokens.obtained_at + static_cast<std::int64_t>(std::llround(*expires_in));
    co_return tokens;
}

}  // namespace mcp::auth
