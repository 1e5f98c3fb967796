#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// TLS for the HTTP client: a context that verifies servers (TLS 1.2 or later, the system's
// certificate authorities or a given file), and the handshake with SNI and hostname checking,
// whose failure says which certificate problem it was.

#include "transport/http/PlainOrTlsStream.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace mcp::http {

/// Trusts `ca_file`'s certificates when given, else the system's (OpenSSL's default paths, which
/// honour SSL_CERT_FILE and SSL_CERT_DIR). Throws std::invalid_argument when the file is unusable.
std::shared_ptr<boost::asio::ssl::context> make_client_tls_context(const std::string& ca_file);

/// The TLS handshake over `tcp` for `host` (a name, checked against the certificate and sent as
/// SNI, or an IP address). On failure returns nothing and sets `error`: "the server's certificate
/// has expired", "… is not for HOST", "… is signed by a certificate authority this client does
/// not trust", or the TLS error.
boost::asio::awaitable<std::optional<ClientStream::Secure>> tls_handshake(ClientStream::Plain tcp,
                                                                          boost::asio::ssl::context& context,
                                                                          const std::string& host,
                                                                          std::chrono::milliseconds timeout,
                                                                          std::string& error);

}  // namespace mcp::http
