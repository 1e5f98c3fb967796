// Boost.Beast is built once, here (BOOST_BEAST_SEPARATE_COMPILATION is set for everything that
// links libmcp), so the HTTP code compiles in seconds rather than minutes on a small machine.
#include <boost/beast/src.hpp>
