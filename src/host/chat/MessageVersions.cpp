#include "host/chat/MessageVersions.hpp"

#include <algorithm>

namespace mcpkit::host {

namespace {

std::size_t index_of(const std::vector<ChatMessage>& history, const std::string& message_id) {
    auto found = std::find_if(history.begin(), history.end(), [&](const ChatMessage& m) { return m.id == message_id; });
    return found == history.end() ? no_stretch : static_cast<std::size_t>(found - history.begin());
}

/// Every version of the stretch starting at `at`, in order, the one shown among them.
std::vector<std::vector<ChatMessage>> all_versions(std::vector<ChatMessage>& history, std::size_t at) {
    std::vector<ChatMessage> shown(std::make_move_iterator(history.begin() + static_cast<std::ptrdiff_t>(at)),
                                   std::make_move_iterator(history.end()));
    history.resize(at);
    std::vector<std::vector<ChatMessage>> all = std::move(shown.front().other_versions);
    std::size_t place = std::min(shown.front().version, all.size());
    shown.front().other_versions.clear();
    shown.front().version = 0;
    all.insert(all.begin() + static_cast<std::ptrdiff_t>(place), std::move(shown));
    return all;
}

}  // namespace

std::size_t edit_point(const std::vector<ChatMessage>& history, const std::string& message_id) {
    std::size_t at = index_of(history, message_id);
    return at != no_stretch && history[at].role == Role::user ? at : no_stretch;
}

std::size_t regenerate_point(const std::vector<ChatMessage>& history, const std::string& message_id) {
    std::size_t at = index_of(history, message_id);
    if (at == no_stretch || history[at].role != Role::assistant) return no_stretch;
    while (at > 0 && history[at - 1].role != Role::user) --at;
    return at == 0 ? no_stretch : at;
}

StretchVersions cut_stretch(std::vector<ChatMessage>& history, std::size_t at) {
    StretchVersions versions;
    if (at >= history.size()) return versions;
    versions.cut = std::min(history[at].version, history[at].other_versions.size());
    versions.others = all_versions(history, at);
    versions.version = versions.others.size();
    return versions;
}

void carry_versions(ChatMessage& first, StretchVersions versions) {
    first.other_versions = std::move(versions.others);
    first.version = versions.version;
}

std::size_t show_version(std::vector<ChatMessage>& history, const std::string& message_id, std::size_t version) {
    std::size_t at = index_of(history, message_id);
    if (at == no_stretch || version > history[at].other_versions.size()) return no_stretch;
    if (version == history[at].version) return at;
    auto all = all_versions(history, at);
    std::vector<ChatMessage> chosen = std::move(all[version]);
    all.erase(all.begin() + static_cast<std::ptrdiff_t>(version));
    chosen.front().other_versions = std::move(all);
    chosen.front().version = version;
    history.insert(history.end(), std::make_move_iterator(chosen.begin()), std::make_move_iterator(chosen.end()));
    return at;
}

}  // namespace mcpkit::host
