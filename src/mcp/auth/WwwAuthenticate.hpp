#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The WWW-Authenticate header (RFC 9110 §11.6.1): challenges, each a scheme and its parameters.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

struct Challenge {
    std::string scheme;  ///< as sent; compare without case
    /// Parameter names lowercased; quoted values unescaped.
    std::map<std::string, std::string, std::less<>> parameters;

    std::optional<std::string> parameter(std::string_view name) const;
};

/// Every challenge in the header; malformed trailing parts are ignored.
std::vector<Challenge> parse_www_authenticate(std::string_view header);

/// The Bearer challenge's parameters, if the header has one.
std::optional<Challenge> bearer_challenge(std::string_view header);

}  // namespace mcp::auth
