#pragma once
// Compares a secret a request carries with the expected one in time that depends only on the
// length, so that timing says nothing about how much of a guess was right.

#include <cstddef>
#include <string_view>

namespace mcpkit::common {

inline bool same_token(std::string_view given, std::string_view expected) {
    if (given.size() != expected.size()) return false;
    unsigned char difference = 0;
    for (std::size_t i = 0; i < given.size(); ++i) difference |= static_cast<unsigned char>(given[i] ^ expected[i]);
    return difference == 0;
}

}  // namespace mcpkit::common
