#include "transport/http/TlsClient.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <stdexcept>

namespace mcp::http {
namespace asio = boost::asio;
namespace beast = boost::beast;

namespace {

std::string describe_verify_error(long code, const std::string& host) {
    switch (code) {
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        return "the server's certificate is not for " + host;
    case X509_V_ERR_CERT_HAS_EXPIRED:
        return "the server's certificate has expired";
    case X509_V_ERR_CERT_NOT_YET_VALID:
        return "the server's certificate is not valid yet";
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        return "the server's certificate is signed by a certificate authority this client does not trust "
               "(give the authority's certificate with --ca-file or SSL_CERT_FILE)";
    default:
        return std::string("the server's certificate was refused: ") + X509_verify_cert_error_string(code);
    }
}

}  // namespace

std::shared_ptr<asio::ssl::context> make_client_tls_context(const std::string& ca_file) {
    auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
    SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
    context->set_verify_mode(asio::ssl::verify_peer);
    boost::system::error_code ec;
    if (!ca_file.empty()) {
        context->load_verify_file(ca_file, ec);
        if (ec) throw std::invalid_argument("cannot use the CA file \"" + ca_file + "\": " + ec.message());
    } else {
        context->set_default_verify_paths(ec);
        if (ec) throw std::invalid_argument("cannot load the system's certificate authorities: " + ec.message());
    }
    return context;
}

asio::awaitable<std::optional<ClientStream::Secure>> tls_handshake(ClientStream::Plain tcp, asio::ssl::context& context,
                                                                   const std::string& host,
                                                                   std::chrono::milliseconds timeout,
                                                                   std::string& error) {
    ClientStream::Secure stream(std::move(tcp), context);
    SSL* ssl = stream.native_handle();
    boost::system::error_code not_an_address;
    asio::ip::make_address(host, not_an_address);
    if (not_an_address) {
        SSL_set_tlsext_host_name(ssl, host.c_str());  // SNI: which site, on a shared address
        SSL_set1_host(ssl, host.c_str());
    } else {
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str());
    }
    beast::get_lowest_layer(stream).expires_after(timeout);
    auto [ec] = co_await stream.async_handshake(asio::ssl::stream_base::client, asio::as_tuple(asio::use_awaitable));
    beast::get_lowest_layer(stream).expires_never();
    if (ec) {
        long verify = SSL_get_verify_result(ssl);
        error = verify != X509_V_OK ? describe_verify_error(verify, host) : "the TLS handshake failed: " + ec.message();
        co_return std::nullopt;
    }
    co_return std::optional<ClientStream::Secure>(std::move(stream));
}

}  // namespace mcp::http
