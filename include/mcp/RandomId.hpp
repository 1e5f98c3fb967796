#pragma once
// Unguessable identifiers (session ids, stream ids, a host's message ids) from the kernel's CSPRNG.

#include "mcp/Export.hpp"

#include <cstddef>
#include <string>

namespace mcp {

/// `bytes` random bytes as lowercase hex. The bytes are drawn from the kernel a few hundred at a
/// time (per thread) and each handed out once: a busy server makes several ids a request, and a
/// getrandom call for each was a tenth of a chat host's system calls.
MCP_API std::string random_hex(std::size_t bytes);

/// A random (version 4) UUID from the same bytes, "xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx".
MCP_API std::string random_uuid();

}  // namespace mcp
