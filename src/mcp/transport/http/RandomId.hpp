#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Unguessable identifiers (session ids, stream ids) from the kernel's CSPRNG.

#include <string>

namespace mcp::http {

/// `bytes` random bytes as lowercase hex.
std::string random_hex(std::size_t bytes);

}  // namespace mcp::http
