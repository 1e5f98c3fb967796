// Boost.Asio's TLS layer (OpenSSL), built once here for https. It belongs to the HTTP component,
// so the core library links no OpenSSL.
#include <boost/asio/ssl/impl/src.hpp>
