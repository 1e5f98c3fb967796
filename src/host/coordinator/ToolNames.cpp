#include "host/coordinator/ToolNames.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>

namespace mcpkit::host {

namespace {

std::uint32_t fnv1a(std::string_view text, std::uint32_t hash = 2166136261u) {
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 16777619u;
    }
    return hash;
}

bool name_character(unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; }

}  // namespace

std::string qualified_tool_name(std::string_view server, std::string_view tool) {
    std::string name;
    name.reserve(server.size() + 2 + tool.size());
    name.append(server).append("__");
    for (unsigned char c : tool) name += name_character(c) ? static_cast<char>(c) : '_';
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name.front()))) name.insert(name.begin(), '_');
    bool changed = name.size() != server.size() + 2 + tool.size() || name.substr(server.size() + 2) != tool;
    // "server__tool" reads back as one pair only when the first "__" is the separator: a server
    // name holding "__" or ending in '_', or a tool name starting with '_', could make the same
    // text as another pair ("a" + "_write" and "a_" + "write" are both "a___write").
    bool ambiguous = server.find("__") != std::string_view::npos || server.ends_with('_') || tool.starts_with('_');
    if (name.size() <= max_tool_name_length && !changed && !ambiguous) return name;
    // Rewritten, ambiguous or shortened: a hash of the pair (with a separator no name holds)
    // keeps two such names apart, and the same across restarts.
    char suffix[10];
    std::uint32_t hash = fnv1a(tool, fnv1a(std::string_view("\0", 1), fnv1a(server)));
    std::snprintf(suffix, sizeof suffix, "_%08x", hash);
    if (name.size() + 9 > max_tool_name_length) name.resize(max_tool_name_length - 9);
    return name + suffix;
}

}  // namespace mcpkit::host
