#pragma once
// Compares a secret a request carries with the expected one in time that depends only on the
// length, so that timing says nothing about how much of a guess was right (libmcp's, one copy).

#include <mcp/transport/BearerSecretAuthorizer.hpp>

#include <string_view>

namespace mcpkit::common {

inline bool same_token(std::string_view given, std::string_view expected) { return mcp::same_secret(given, expected); }

}  // namespace mcpkit::common
