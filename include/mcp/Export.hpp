#pragma once
// MCP_API marks what libmcp's shared libraries export. They are built with hidden visibility, so
// what is not marked stays internal: a smaller dynamic symbol table, faster loading, and private
// code that can change without breaking programs linked against the library. The static archives
// are compiled from the same objects, so in them too only the marked symbols (and Boost's compiled
// parts) have default visibility.
//
// Every public header includes this one, so it also checks that a program is compiled the way
// libmcp was: libmcp holds Boost.Asio's and Boost.JSON's compiled parts, and a program that sees
// another Boost, or Asio configured otherwise, would share objects of a different layout with it.
// The CMake package and the pkg-config files set what is needed.

#if __cplusplus < 202002L
#error "libmcp needs C++20 or later: compile with -std=c++20 (CMake: target_compile_features(... cxx_std_20))"
#endif

#include <boost/version.hpp>

#if BOOST_VERSION / 100 != 1081
#error "libmcp was built with Boost 1.81 and contains its compiled parts: use Boost 1.81's headers"
#endif
#if !defined(BOOST_ASIO_SEPARATE_COMPILATION) || BOOST_ASIO_RECYCLING_ALLOCATOR_CACHE_SIZE != 16
#error "libmcp needs BOOST_ASIO_SEPARATE_COMPILATION and BOOST_ASIO_RECYCLING_ALLOCATOR_CACHE_SIZE=16 defined (link mcpkit::mcp with CMake, or use pkg-config --cflags mcpkit)"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MCP_API __attribute__((visibility("default")))
#else
#define MCP_API
#endif
