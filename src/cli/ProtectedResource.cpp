#include "cli/ProtectedResource.hpp"

#include <mcp/auth/ResourceServer.hpp>

#include <cstdlib>
#include <stdexcept>

namespace mcpkit::cli {

void add_protected_resource_options(CLI::App& command, ProtectedResourceArguments& arguments) {
    command.add_option("--auth-issuer", arguments.issuer,
                       "--http: accept only OAuth access tokens from this authorization server (its issuer URL); "
                       "JWTs are checked against its published keys");
    command.add_option("--auth-resource", arguments.resource,
                       "--http: this endpoint's canonical URL, the audience tokens must be for (default: "
                       "SCHEME://HOST:PORT/PATH of --http, which then needs a fixed port)");
    command.add_option("--auth-scope", arguments.scopes, "--http: a scope every request needs (repeat for several)");
    command.add_option("--auth-tool-scope", arguments.tool_scopes,
                       "--http: NAME=SCOPE[,SCOPE…]: scopes the tool NAME needs besides (repeat); a token without "
                       "them does not see it listed and is refused with 403 when it calls it");
    command.add_flag("--auth-introspect", arguments.introspect,
                     "--http: check tokens by asking the authorization server (RFC 7662) instead of as JWTs");
    command.add_option("--auth-client-id", arguments.client_id,
                       "--auth-introspect: this server's client id at the authorization server (the secret in "
                       "MCPKIT_AUTH_CLIENT_SECRET)");
    command.add_option("--auth-ca-file", arguments.ca_file,
                       "Trust these certificate authorities (PEM) to reach the authorization server over https");
}

void protect_http_server(const ProtectedResourceArguments& arguments, mcp::Server& server,
                         boost::asio::any_io_executor executor, mcp::StreamableHttpServerOptions& options,
                         const std::string& scheme) {
    if (arguments.issuer.empty()) {
        if (!arguments.resource.empty() || !arguments.scopes.empty() || !arguments.tool_scopes.empty() ||
            arguments.introspect)
            throw std::invalid_argument("--auth-* options need --auth-issuer");
        return;
    }
    std::string resource = arguments.resource;
    if (resource.empty()) {
        if (options.port == 0)
            throw std::invalid_argument("--auth-issuer needs the endpoint's URL: give --auth-resource, or a fixed "
                                        "port in --http");
        std::string host = options.host.find(':') == std::string::npos ? options.host : "[" + options.host + "]";
        resource = scheme + "://" + host + ":" + std::to_string(options.port) + options.path;
    }
    mcp::HttpClientOptions http;
    http.ca_file = arguments.ca_file;
    std::shared_ptr<mcp::auth::TokenVerifier> verifier;
    if (arguments.introspect) {
        mcp::auth::IntrospectionVerifierOptions introspection;
        introspection.issuer = arguments.issuer;
        introspection.audience = resource;
        introspection.client_id = arguments.client_id;
        if (const char* secret = std::getenv("MCPKIT_AUTH_CLIENT_SECRET")) introspection.client_secret = secret;
        introspection.http = http;
        verifier = mcp::auth::make_introspection_verifier(executor, std::move(introspection));
    } else {
        mcp::auth::JwtVerifierOptions jwt;
        jwt.issuer = arguments.issuer;
        jwt.audience = resource;
        jwt.http = http;
        verifier = mcp::auth::make_jwt_verifier(executor, std::move(jwt));
    }
    mcp::auth::ResourceServerOptions protection;
    protection.resource = resource;
    protection.authorization_servers = {arguments.issuer};
    protection.scopes_supported = arguments.scopes;
    protection.required_scopes = arguments.scopes;
    protection.verifier = std::move(verifier);
    protection.resource_name = server.info().name;
    protection.log = options.log;
    for (const auto& entry : arguments.tool_scopes) {
        auto equals = entry.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == entry.size())
            throw std::invalid_argument("--auth-tool-scope wants NAME=SCOPE[,SCOPE…], got \"" + entry + "\"");
        std::vector<std::string> scopes;
        std::string list = entry.substr(equals + 1);
        for (std::size_t at = 0; at <= list.size();) {
            auto comma = list.find(',', at);
            if (comma == std::string::npos) comma = list.size();
            if (comma > at) scopes.push_back(list.substr(at, comma - at));
            at = comma + 1;
        }
        std::string name = entry.substr(0, equals);
        if (!server.find_tool(name)) throw std::invalid_argument("--auth-tool-scope: there is no tool \"" + name + "\"");
        for (const auto& scope : scopes)
            if (std::find(protection.scopes_supported.begin(), protection.scopes_supported.end(), scope) ==
                protection.scopes_supported.end())
                protection.scopes_supported.push_back(scope);
        server.require_scopes(mcp::ScopedItem::tool, name, std::move(scopes));
    }
    options.authorization = mcp::auth::ResourceServer::create(std::move(protection));
}

}  // namespace mcpkit::cli
