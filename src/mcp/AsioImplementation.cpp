// Boost.Asio is built once, here, instead of in every translation unit that includes it
// (BOOST_ASIO_SEPARATE_COMPILATION is set for everything that links libmcp).
#include <boost/asio/impl/src.hpp>
