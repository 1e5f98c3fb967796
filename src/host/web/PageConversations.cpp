// The page's list of conversations (docs/host-websocket.md, "Conversations"): a page moves
// between conversations on its one WebSocket, pages through the list the store keeps, renames and
// deletes. Every page hears of a rename or a delete, so that no list shows a stale name or a
// conversation that is gone.

#include "host/web/PageProtocol.hpp"

namespace mcpkit::host {

void PageProtocol::open_conversation(const std::shared_ptr<WebSocketClient>& client,
                                     const std::shared_ptr<ChatSession>& from, const std::string& id) {
    std::shared_ptr<ChatSession> to;
    if (id.empty()) {
        bool resumed = false;
        to = sessions_.open({}, resumed);
    } else if (!(to = sessions_.open_existing(id))) {
        throw std::invalid_argument("open_conversation.payload.sessionId names no conversation (deleted, or "
                                    "forgotten after a long silence)");
    }
    // The turn of the conversation left goes on; the page finds it there when it comes back.
    if (from) from->detach(client.get());
    client->session_id = to->id();
    to->attach(client);
    sessions_.touch(*to);
    log_.info("WebSocket", "conversation_opened", {{"sessionId", to->id()}, {"connectionId", client->id}});
    client->send(PageFrames::opened(to->id()));
    greet(*client, *to, nullptr);
}

void PageProtocol::list_conversations(WebSocketClient& client, const std::string& request_id, const std::string& search,
                                      const std::string& after) {
    if (search.size() > 200) throw std::invalid_argument("list_conversations.payload.search is longer than 200 bytes");
    ConversationQuery query;
    query.search = search;
    query.after = after;
    try {
        client.send(PageFrames::conversations(request_id, sessions_.conversations(query)));
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("list_conversations.payload.") + e.what());
    }
}

void PageProtocol::rename_conversation(const std::string& id, const std::string& given) {
    // One line, trimmed: a title is shown in a list row.
    std::string title;
    for (char c : given) title += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    title.erase(0, title.find_first_not_of(' '));
    title.erase(title.find_last_not_of(' ') + 1);
    if (title.empty()) throw std::invalid_argument("rename_conversation.payload.title is empty");
    if (title.size() > 200) throw std::invalid_argument("rename_conversation.payload.title is longer than 200 bytes");
    sessions_.rename(id, title);
    broadcast_all(PageFrames::conversation_renamed(id, title));
}

void PageProtocol::delete_conversation(const std::string& id) {
    if (auto session = sessions_.remove(id)) {
        // Its answer stops and its questions close; its pages learn below that it is gone.
        conversation_.stop(*session);
        session->broadcast(PageFrames::conversation_deleted(id));
        session->send_queued();
        // Its pages hear nothing more of it (the turn ending, say): they open another.
        session->detach_all();
    }
    log_.info("Session", "conversation_deleted", {{"sessionId", id}});
    broadcast_all(PageFrames::conversation_deleted(id));
}

void PageProtocol::broadcast_all(const Frame& frame) {
    for (const auto& [id, session] : sessions_.sessions()) session->broadcast(frame);
}

}  // namespace mcpkit::host
