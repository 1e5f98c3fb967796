#include "auth/Scopes.hpp"

#include <algorithm>

namespace mcp::auth {

std::vector<std::string> split_scopes(std::string_view scopes) {
    std::vector<std::string> list;
    std::size_t at = 0;
    while (at < scopes.size()) {
        std::size_t end = scopes.find(' ', at);
        if (end == std::string_view::npos) end = scopes.size();
        if (end > at) {
            std::string scope(scopes.substr(at, end - at));
            if (std::find(list.begin(), list.end(), scope) == list.end()) list.push_back(std::move(scope));
        }
        at = end + 1;
    }
    return list;
}

std::string join_scopes(const std::vector<std::string>& scopes) {
    std::string text;
    for (const auto& scope : scopes) {
        if (scope.empty()) continue;
        if (!text.empty()) text += ' ';
        text += scope;
    }
    return text;
}

std::string union_of_scopes(std::string_view held, std::string_view more) {
    auto list = split_scopes(held);
    for (auto& scope : split_scopes(more))
        if (std::find(list.begin(), list.end(), scope) == list.end()) list.push_back(std::move(scope));
    return join_scopes(list);
}

bool scopes_cover(std::string_view held, std::string_view wanted) {
    auto have = split_scopes(held);
    for (const auto& scope : split_scopes(wanted))
        if (scope != "offline_access" && std::find(have.begin(), have.end(), scope) == have.end()) return false;
    return true;
}

}  // namespace mcp::auth
