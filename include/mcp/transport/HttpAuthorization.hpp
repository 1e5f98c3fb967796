#pragma once
// What the Streamable HTTP client asks of whoever authorizes its requests (OAuth 2.1 in
// mcp/auth/OAuthClient.hpp, or an application's own scheme). The transport stays ignorant of how
// a token is obtained: it asks for a header before each request and reports the server's
// refusals.

#include "mcp/Export.hpp"

#include <boost/asio/awaitable.hpp>

#include <string>

namespace mcp {

/// A 401 or 403 answer, as the transport saw it.
struct MCP_API HttpChallenge {
    int status = 0;  ///< 401 (no or bad credentials) or 403 (not enough scope).
    /// The WWW-Authenticate header ("" when there was none).
    std::string www_authenticate;
    /// The URL the request went to.
    std::string url;
    /// The Authorization header the refused request carried ("" for none).
    std::string sent_authorization;
};

/// What the Streamable HTTP client asks of whoever authorizes its requests (auth::OAuthClient, or an
/// application's own scheme): a header before each request, and what to do when one is refused.
class MCP_API HttpAuthorization {
public:
    virtual ~HttpAuthorization() = default;
    /// The Authorization header for the next request, "" for none (refreshing a token first when
    /// it is about to expire).
    virtual boost::asio::awaitable<std::string> authorization_header() = 0;
    /// The server refused a request. True: try it again with authorization_header(); false: give
    /// up on it. Throws (with the reason) when authorization failed.
    virtual boost::asio::awaitable<bool> answer_challenge(HttpChallenge challenge) = 0;
};

}  // namespace mcp
