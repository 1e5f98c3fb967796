#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// TLS for the HTTP server: a context from a certificate chain and its private key (TLS 1.2 or
// later), and the server side of the handshake with a deadline.

#include "transport/http/PlainOrTlsStream.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace mcp::http {

/// Reads the PEM certificate chain and private key; throws std::invalid_argument naming the file
/// and the problem (unreadable, not PEM, the key does not match the certificate).
std::shared_ptr<boost::asio::ssl::context> make_server_tls_context(const std::string& certificate_file,
                                                                   const std::string& private_key_file);

/// The server side of the handshake on an accepted socket. Nothing, with `error` set, when the
/// client fails it or does not finish within `timeout`.
boost::asio::awaitable<std::optional<ServerStream::Secure>> tls_accept(ServerStream::Plain socket,
                                                                      boost::asio::ssl::context& context,
                                                                      std::chrono::steady_clock::duration timeout,
                                                                      std::string& error);

}  // namespace mcp::http
