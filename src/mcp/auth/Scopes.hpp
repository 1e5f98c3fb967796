#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// OAuth scope strings: space-separated, order irrelevant, duplicates meaningless.

#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

std::vector<std::string> split_scopes(std::string_view scopes);
std::string join_scopes(const std::vector<std::string>& scopes);
/// `held`, then each scope of `more` not in it.
std::string union_of_scopes(std::string_view held, std::string_view more);
/// Whether `held` includes every scope of `wanted`, but for offline_access, which asks for a
/// refresh token and is rarely echoed in an access token's scope.
bool scopes_cover(std::string_view held, std::string_view wanted);

}  // namespace mcp::auth
