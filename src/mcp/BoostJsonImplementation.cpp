// Boost.JSON compiled into libmcp (instead of linking Debian's shared library): the parser and
// serializer sit on every message's path, and built here they are optimized with the rest.
#include <boost/json/src.hpp>
