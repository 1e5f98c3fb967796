#pragma once
// Unguessable identifiers (session ids, stream ids) from the kernel's CSPRNG.

#include <string>

namespace mcp::http {

/// `bytes` random bytes as lowercase hex.
std::string random_hex(std::size_t bytes);

}  // namespace mcp::http
