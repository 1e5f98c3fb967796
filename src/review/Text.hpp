#pragma once
// Text helpers the review code shares.

#include <string_view>

namespace mcpkit::review {

/// Without leading and trailing spaces, tabs and line ends.
inline std::string_view trim(std::string_view text) {
    constexpr std::string_view space = " \t\r\n";
    auto first = text.find_first_not_of(space);
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(space) - first + 1);
}

}  // namespace mcpkit::review
