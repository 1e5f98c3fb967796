#pragma once
// Edits and answers asked again, with nothing lost: the stretch of history they replace (from the
// edited message, or from the answer, to the end) is kept whole as an earlier version, on the
// first message of the stretch that replaces it, and any version can be brought back. The
// history stays one line: the versions not shown are not sent to the model.

#include "host/history/ChatMessage.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace mcpkit::host {

inline constexpr std::size_t no_stretch = static_cast<std::size_t>(-1);

/// Where an edit of the user's message `message_id` starts; no_stretch when it is not one.
std::size_t edit_point(const std::vector<ChatMessage>& history, const std::string& message_id);
/// Where asking again for the answer `message_id` starts: just after the user's message it
/// answers; no_stretch when `message_id` is not an assistant's message after one.
std::size_t regenerate_point(const std::vector<ChatMessage>& history, const std::string& message_id);

/// The versions a new stretch's first message carries.
struct StretchVersions {
    std::vector<std::vector<ChatMessage>> others;
    std::size_t version = 0;  ///< the new stretch's place: after all the others
    std::size_t cut = 0;      ///< where among `others` the stretch cut stands
};
/// Cuts `history` at `at` and returns the versions for what replaces it: the stretch cut, with
/// the versions its first message carried.
StretchVersions cut_stretch(std::vector<ChatMessage>& history, std::size_t at);
/// Puts `versions` on `first`, the first message of the new stretch.
void carry_versions(ChatMessage& first, StretchVersions versions);

/// Shows version `version` of the stretch that starts with the message `message_id`; returns
/// where the stretch starts, or no_stretch when there is no such message or version.
std::size_t show_version(std::vector<ChatMessage>& history, const std::string& message_id, std::size_t version);

}  // namespace mcpkit::host
