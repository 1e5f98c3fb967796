#pragma once
// The command-line options that put an HTTP server behind an OAuth 2.1 authorization server
// (--auth-issuer and friends), shared by every mcpkit server that serves HTTP.

#include <CLI/CLI.hpp>
#include <mcp/server/Server.hpp>
#include <mcp/transport/StreamableHttpServer.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcpkit::cli {

struct ProtectedResourceArguments {
    std::string issuer;                    ///< --auth-issuer: tokens from this authorization server
    std::string resource;                  ///< --auth-resource: this endpoint's canonical URL
    std::vector<std::string> scopes;       ///< --auth-scope: needed by every request
    std::vector<std::string> tool_scopes;  ///< --auth-tool-scope NAME=SCOPE[,SCOPE…]
    bool introspect = false;               ///< --auth-introspect: RFC 7662 instead of JWTs
    std::string client_id;                 ///< --auth-client-id: for introspection
    std::string ca_file;                   ///< --auth-ca-file: to reach the issuer over https
};

void add_protected_resource_options(CLI::App& command, ProtectedResourceArguments& arguments);

/// Sets options.authorization when --auth-issuer was given, and the per-tool scopes on `server`.
/// `scheme` is http or https; the default resource is SCHEME://HOST:PORT/PATH, which needs a
/// fixed port. Throws std::invalid_argument naming the option that is wrong.
void protect_http_server(const ProtectedResourceArguments& arguments, mcp::Server& server,
                         boost::asio::any_io_executor executor, mcp::StreamableHttpServerOptions& options,
                         const std::string& scheme);

}  // namespace mcpkit::cli
