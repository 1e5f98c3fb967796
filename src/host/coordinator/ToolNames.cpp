#include "host/coordinator/ToolNames.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>

namespace mcpkit::host {

namespace {

std::uint32_t fnv1a(std::string_view text) {
    std::uint32_t hash = 2166136261u;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 16777619u;
    }
    return hash;
}

}  // namespace

std::string qualified_tool_name(std::string_view server, std::string_view tool) {
    std::string name;
    name.reserve(server.size() + 2 + tool.size());
    name.append(server).append("__");
    for (unsigned char c : tool) name += std::isalnum(c) || c == '_' || c == '-' ? static_cast<char>(c) : '_';
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name.front()))) name.insert(name.begin(), '_');
    bool changed = name.size() != server.size() + 2 + tool.size() || name.substr(server.size() + 2) != tool;
    if (name.size() <= max_tool_name_length && !changed) return name;
    // Shortened or rewritten: a hash of the original keeps two such names apart.
    char suffix[10];
    std::string original = std::string(server) + "__" + std::string(tool);
    std::snprintf(suffix, sizeof suffix, "_%08x", fnv1a(original));
    if (name.size() + 9 > max_tool_name_length) name.resize(max_tool_name_length - 9);
    return name + suffix;
}

}  // namespace mcpkit::host
