#include "host/chat/ChatSession.hpp"

#include <algorithm>

namespace mcpkit::host {

ChatSession::ChatSession(boost::asio::any_io_executor executor, std::string id)
    : answers(std::move(executor)), id_(std::move(id)) {}

void ChatSession::broadcast(const std::shared_ptr<const std::string>& text) {
    std::erase_if(clients_, [](const auto& weak) { return weak.expired(); });
    for (const auto& weak : clients_)
        if (auto client = weak.lock()) client->send(text);
}

void ChatSession::send_queued() {
    for (const auto& weak : clients_)
        if (auto client = weak.lock()) client->send_queued();
}

void ChatSession::attach(const std::shared_ptr<SessionClient>& client) { clients_.push_back(client); }

void ChatSession::detach(const SessionClient* client) {
    std::erase_if(clients_, [client](const auto& weak) {
        auto locked = weak.lock();
        return !locked || locked.get() == client;
    });
}

}  // namespace mcpkit::host
