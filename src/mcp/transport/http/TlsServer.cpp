#include "transport/http/TlsServer.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <openssl/ssl.h>

#include <stdexcept>

namespace mcp::http {
namespace asio = boost::asio;

std::shared_ptr<asio::ssl::context> make_server_tls_context(const std::string& certificate_file,
                                                            const std::string& private_key_file) {
    auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
    context->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::single_dh_use);
    boost::system::error_code ec;
    context->use_certificate_chain_file(certificate_file, ec);
    if (ec) throw std::invalid_argument("cannot use the TLS certificate \"" + certificate_file + "\": " + ec.message());
    context->use_private_key_file(private_key_file, asio::ssl::context::pem, ec);
    if (ec) throw std::invalid_argument("cannot use the TLS private key \"" + private_key_file + "\": " + ec.message());
    if (SSL_CTX_check_private_key(context->native_handle()) != 1)
        throw std::invalid_argument("the TLS private key \"" + private_key_file + "\" does not match the certificate \"" +
                                    certificate_file + "\"");
    return context;
}

asio::awaitable<std::optional<ServerStream::Secure>> tls_accept(ServerStream::Plain socket, asio::ssl::context& context,
                                                               std::chrono::steady_clock::duration timeout,
                                                               std::string& error) {
    ServerStream::Secure secure(std::move(socket), context);
    // A client that connects and never finishes the handshake is dropped, like one that idles.
    // `waiting` lives while the handshake does: a deadline that fires as the handshake completes
    // must not touch the stream once it has been handed on.
    auto waiting = std::make_shared<bool>(true);
    asio::steady_timer deadline(secure.get_executor(), timeout);
    deadline.async_wait([&secure, watch = std::weak_ptr<bool>(waiting)](const boost::system::error_code& ec) {
        boost::system::error_code ignored;
        if (!ec && !watch.expired()) secure.next_layer().close(ignored);
    });
    auto [ec] = co_await secure.async_handshake(asio::ssl::stream_base::server, asio::as_tuple(asio::use_awaitable));
    deadline.cancel();
    waiting.reset();
    if (ec) {
        error = ec.message();
        boost::system::error_code ignored;
        secure.next_layer().close(ignored);
        co_return std::nullopt;
    }
    co_return std::optional<ServerStream::Secure>(std::move(secure));
}

}  // namespace mcp::http
