#pragma once
// The client side of Streamable HTTP, as a Transport: hand it to mcp::Client like any other.
// http:// and https:// (TLS 1.2+, servers verified with SNI and hostname checks), directly or
// through an HTTP proxy's CONNECT tunnel.
//
//   auto transport = mcp::StreamableHttpClientTransport::create(executor, {.url = "http://127.0.0.1:3000/mcp"});
//   co_await client.connect(transport);
//
// What it does for the layer above, which sees only JSON-RPC frames:
// - one POST per outgoing message; a JSON or SSE answer; 202 for notifications and responses;
// - session era: keeps Mcp-Session-Id and MCP-Protocol-Version from initialize, opens the
//   standalone GET stream, resumes broken streams with Last-Event-ID after the server's `retry`,
//   initializes again (replaying initialize) when the server says 404 for an expired session,
//   and sends DELETE on close;
// - 2026-07-28: MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers (learning
//   which arguments a tool mirrors from tools/list), no session, no GET;
// - servers that only speak the 2024-11-05 HTTP+SSE transport: falls back to it when initialize
//   is refused with 400, 404 or 405.

#include "mcp/Export.hpp"
#include "mcp/transport/HttpAuthorization.hpp"
#include "mcp/transport/Transport.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace mcp {

/// Where a StreamableHttpClientTransport connects and how it authorizes, reconnects and falls back.
struct MCP_API StreamableHttpClientOptions {
    std::string url;  ///< The MCP endpoint, e.g. "https://example.com/mcp".
    /// Extra headers on every request (Authorization, …).
    std::map<std::string, std::string> headers;
    /// Tries to resume one broken stream before giving up on it.
    int max_reconnects = 2;
    /// Wait before resuming when the server gave no `retry`; it grows 1.5× per try.
    std::chrono::milliseconds reconnect_delay{1000};
    /// Open the standalone GET stream after initialization (session era).
    bool open_get_stream = true;
    /// Fall back to HTTP+SSE (2024-11-05) when initialize is refused with 400, 404 or 405.
    bool legacy_fallback = true;
    /// Speak HTTP+SSE (2024-11-05) from the start: GET `url` for the endpoint, without first
    /// trying a POST there (for servers that answer that POST in ways the fallback cannot read).
    bool legacy_only = false;
    /// https: a PEM file of the certificate authorities to trust instead of the system's (which
    /// OpenSSL finds, honouring SSL_CERT_FILE and SSL_CERT_DIR). Servers are always verified.
    std::string ca_file;
    /// The HTTP proxy to tunnel through (CONNECT): "http://[user:password@]host:port", or "" for
    /// none. Unset: HTTPS_PROXY / HTTP_PROXY, unless NO_PROXY names the host.
    std::optional<std::string> proxy;
    /// Connect + response head timeout for each HTTP request.
    std::chrono::milliseconds http_timeout{std::chrono::seconds(30)};
    /// Authorizes requests and answers 401 and 403 (mcp::auth::OAuthClient for OAuth 2.1); none:
    /// a refusal fails the request with the server's explanation.
    std::shared_ptr<HttpAuthorization> authorization;
    /// Where the transport reports what it tolerated (a refused GET, a dropped stream).
    std::function<void(std::string_view)> log;
};

/// The client side of Streamable HTTP, as a Transport to hand to mcp::Client: one POST per outgoing
/// message, sessions and resumable streams in the 2025 era, the per-request headers of 2026-07-28,
/// and a fallback to the 2024-11-05 HTTP+SSE transport.
class MCP_API StreamableHttpClientTransport : public Transport {
public:
    /// Throws std::invalid_argument for a URL it cannot use.
    static std::shared_ptr<StreamableHttpClientTransport> create(boost::asio::any_io_executor executor,
                                                                 StreamableHttpClientOptions options);

    /// The session id the server gave, if any.
    virtual const std::string& session_id() const = 0;
    /// Whether the legacy HTTP+SSE transport is in use.
    virtual bool using_legacy_transport() const = 0;
    /// Sends DELETE for the session (if any) and closes; close() does the same without waiting.
    virtual boost::asio::awaitable<void> shutdown() = 0;
};

}  // namespace mcp
