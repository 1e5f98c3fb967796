#include "host/chat/ChatSession.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace mcpkit::host {
namespace json = boost::json;

ChatSession::ChatSession(boost::asio::any_io_executor executor, std::string id)
    : answers(std::move(executor)), id_(std::move(id)) {}

void ChatSession::broadcast(const json::object& frame) {
    if (clients_.empty()) return;
    broadcast(std::make_shared<const std::string>(json::serialize(frame)));
}

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

void ChatSession::ask(const std::string& id, json::object frame) {
    broadcast(frame);
    questions_[id] = std::move(frame);
}

void ChatSession::forget_question(const std::string& id, std::string_view reason) {
    if (!questions_.erase(id)) return;
    broadcast({{"type", "question_closed"}, {"payload", {{"id", id}, {"reason", reason}}}});
}

std::vector<json::object> ChatSession::open_questions() const {
    std::vector<json::object> open;
    for (const auto& [id, frame] : questions_) open.push_back(frame);
    return open;
}

}  // namespace mcpkit::host
