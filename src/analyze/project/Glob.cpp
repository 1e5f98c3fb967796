#include "analyze/project/Glob.hpp"

namespace mcpkit::analyze {

namespace {

void expand_braces(const std::string& pattern, std::vector<std::string>& out) {
    auto open = pattern.find('{');
    if (open == std::string::npos) {
        out.push_back(pattern);
        return;
    }
    int depth = 0;
    std::size_t close = open;
    std::vector<std::size_t> commas;
    for (std::size_t i = open; i < pattern.size(); ++i) {
        if (pattern[i] == '{') ++depth;
        if (pattern[i] == '}' && --depth == 0) {
            close = i;
            break;
        }
        if (pattern[i] == ',' && depth == 1) commas.push_back(i);
    }
    if (close == open) {  // unbalanced: literal
        out.push_back(pattern);
        return;
    }
    std::size_t start = open + 1;
    commas.push_back(close);
    for (std::size_t comma : commas) {
        expand_braces(pattern.substr(0, open) + pattern.substr(start, comma - start) + pattern.substr(close + 1), out);
        start = comma + 1;
    }
}

// Classic wildcard matching with backtracking; `**` may cross '/', `*` and `?` may not.
bool match(std::string_view pattern, std::string_view text) {
    std::size_t p = 0, t = 0;
    std::size_t star_p = std::string_view::npos, star_t = 0;
    bool star_crosses = false;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star_crosses = p + 1 < pattern.size() && pattern[p + 1] == '*';
            p += star_crosses ? 2 : 1;
            // `**/` also matches no directory at all.
            if (star_crosses && p < pattern.size() && pattern[p] == '/') {
                if (match(pattern.substr(p + 1), text.substr(t))) return true;
            }
            star_p = p;
            star_t = t;
            continue;
        }
        if (p < pattern.size() && (pattern[p] == '?' ? text[t] != '/' : pattern[p] == text[t])) {
            ++p;
            ++t;
            continue;
        }
        if (star_p != std::string_view::npos && (star_crosses || text[star_t] != '/')) {
            p = star_p;
            t = ++star_t;
            continue;
        }
        return false;
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

}  // namespace

Glob::Glob(std::string_view pattern) : pattern_(pattern) {
    std::string normalized(pattern);
    if (normalized.rfind("./", 0) == 0) normalized.erase(0, 2);
    basename_only_ = normalized.find('/') == std::string::npos;
    // `dir/` means everything under dir.
    if (!normalized.empty() && normalized.back() == '/') normalized += "**";
    expand_braces(normalized, alternatives_);
}

bool Glob::matches(std::string_view relative_path) const {
    std::string_view subject = relative_path;
    if (basename_only_) {
        auto slash = subject.find_last_of('/');
        if (slash != std::string_view::npos) subject.remove_prefix(slash + 1);
    }
    for (const std::string& alternative : alternatives_)
        if (match(alternative, subject)) return true;
    // A directory pattern also matches everything below it.
    if (!basename_only_)
        for (const std::string& alternative : alternatives_)
            if (relative_path.size() > alternative.size() && relative_path.compare(0, alternative.size(), alternative) == 0 &&
                relative_path[alternative.size()] == '/')
                return true;
    return false;
}

std::string glob_problem(std::string_view pattern) {
    if (pattern.empty()) return "is empty";
    int depth = 0;
    for (char c : pattern) {
        if (c == '{') ++depth;
        if (c == '}' && --depth < 0) return "has a '}' without its '{'";
    }
    if (depth != 0) return "has a '{' without its '}'";
    return {};
}

}  // namespace mcpkit::analyze
