#pragma once
// What the Streamable HTTP server asks of whoever guards its endpoint (OAuth 2.1 in
// mcp/auth/ResourceServer.hpp): documents to serve beside it, a verdict on each request's
// Authorization header, and the refusal for a message that needs scopes its token lacks. The
// transport knows no token format and no authorization server.

#include "mcp/Export.hpp"
#include "mcp/jsonrpc/Codec.hpp"

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// An HttpRequestAuthorizer's answer on one request: let it through (with who sent it), or refuse it.
struct MCP_API AuthorizationVerdict {
    /// 0: let the request through; else the status to refuse it with (401, 403, 503).
    int status = 0;
    /// The WWW-Authenticate header of a refusal.
    std::string www_authenticate;
    /// The refusal's JSON body.
    std::string body;
    /// For a request let through: who sent it, handed to the server with its messages.
    std::shared_ptr<const jsonrpc::MessageOrigin> origin;
};

/// What the Streamable HTTP server asks of whoever guards its endpoint (auth::ResourceServer,
/// make_bearer_secret_authorizer): documents to serve, a verdict on each request, scope checks.
/// The transport knows no token format and no authorization server.
class MCP_API HttpRequestAuthorizer {
public:
    virtual ~HttpRequestAuthorizer() = default;
    /// A JSON document served by GET at `path` without authorization (protected resource
    /// metadata), or nothing.
    virtual std::optional<std::string> document(std::string_view path) const = 0;
    /// The verdict on a request with this Authorization header ("" when it had none).
    virtual boost::asio::awaitable<AuthorizationVerdict> authorize(std::string authorization_header) = 0;
    /// The refusal (403) for a message from `origin` that needs `scopes`; status 0 if it has them.
    virtual AuthorizationVerdict require(const jsonrpc::MessageOrigin* origin,
                                         const std::vector<std::string>& scopes) const = 0;
    /// Who `origin` is ("" for nobody): a session belongs to the principal that started it.
    virtual std::string principal(const jsonrpc::MessageOrigin* origin) const = 0;
};

}  // namespace mcp
