// Edits, answers asked again and earlier versions brought back: where the conversation cuts its
// history and puts it back (the versions themselves are chat/MessageVersions').

#include "host/chat/Conversation.hpp"

#include <algorithm>

namespace mcpkit::host {

bool Conversation::cut_for(ChatSession& session, const UserInput& input) {
    std::size_t at = !input.regenerates.empty() ? regenerate_point(session.history, input.regenerates)
                                                : edit_point(session.history, input.edits);
    if (at == no_stretch) return false;
    auto carried = std::make_unique<ChatSession::CarriedVersions>();
    carried->versions = cut_stretch(session.history, at);
    carried->at = at;
    session.carried_versions = std::move(carried);
    events_.history_changed(session);  // the store keeps the stretch until its replacement comes
    return true;
}

void Conversation::restore_cut(ChatSession& session) {
    auto carried = std::move(session.carried_versions);
    auto& others = carried->versions.others;
    std::size_t place = std::min(carried->versions.cut, others.size() - 1);
    std::vector<ChatMessage> back = std::move(others[place]);
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(place));
    back.front().other_versions = std::move(others);
    back.front().version = place;
    session.history.insert(session.history.end(), std::make_move_iterator(back.begin()), std::make_move_iterator(back.end()));
    events_.history_changed(session);  // the store never lost it
}

void Conversation::replaced_from(ChatSession& session, std::size_t index) {
    std::vector<ChatMessage> tail(session.history.begin() + static_cast<std::ptrdiff_t>(index), session.history.end());
    try {
        if (session.in_store && !session.removed) session.stored_revision = store_.replace_from(session.id(), index, tail);
    } catch (const std::exception& e) {
        log_.error("Session", "store_failed", {{"sessionId", session.id()}, {"error", e.what()}});
    }
    events_.history_changed(session);
}

void Conversation::show_version(ChatSession& session, const std::string& message_id, std::size_t version) {
    if (session.turn_running) throw std::invalid_argument("an answer is still being written; wait for it or stop it first");
    std::size_t at = mcpkit::host::show_version(session.history, message_id, version);
    if (at == no_stretch)
        throw std::invalid_argument("show_version.payload names no such version: messageId must be a message with "
                                    "versions, and version one of them (from 0)");
    replaced_from(session, at);
}

}  // namespace mcpkit::host
