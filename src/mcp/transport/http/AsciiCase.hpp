#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// ASCII helpers for HTTP names, tokens and field values: no locale, no allocation.

#include <algorithm>
#include <string_view>

namespace mcp::http {

/// Without the optional whitespace (spaces and tabs) HTTP allows around a field value.
inline std::string_view trim_ows(std::string_view value) {
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    return value;
}

inline char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline bool equals_case_insensitive(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

/// `needle` is lowercase.
inline bool contains_case_insensitive(std::string_view haystack, std::string_view needle) {
    if (haystack.find(needle) != std::string_view::npos) return true;  // the usual spelling
    bool has_letters = std::any_of(needle.begin(), needle.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (!has_letters || needle.size() > haystack.size()) return false;
    for (std::size_t start = 0; start + needle.size() <= haystack.size(); ++start)
        if (equals_case_insensitive(haystack.substr(start, needle.size()), needle)) return true;
    return false;
}

/// Whether a field name from a parsed request (a valid token) is `lowercase`, which may hold only
/// lowercase letters, digits and '-'. Setting bit 0x20 folds case without ambiguity there: no
/// token character other than the uppercase letter maps onto a lowercase letter, a digit or '-'.
inline bool field_name_is(std::string_view name, std::string_view lowercase) {
    if (name.size() != lowercase.size()) return false;
    for (std::size_t i = 0; i < name.size(); ++i)
        if ((name[i] | 0x20) != lowercase[i]) return false;
    return true;
}

}  // namespace mcp::http
