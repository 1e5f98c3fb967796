#include "host/chat/UserQuestions.hpp"

#include "host/chat/ChatSession.hpp"

namespace mcpkit::host {

boost::asio::awaitable<std::optional<boost::json::object>> ask_user(ChatSession& session, ChatEvents& events,
                                                                    Question question,
                                                                    std::chrono::milliseconds timeout) {
    std::string id = question_id(question);
    events.question_opened(session, question);
    session.questions[id] = std::move(question);
    auto answer = co_await session.answers.wait(id, timeout);
    std::string_view reason = answer ? "answered" : session.stopped() ? "stopped" : "expired";
    close_question(session, events, id, reason);
    co_return answer;
}

void close_question(ChatSession& session, ChatEvents& events, const std::string& id, std::string_view reason) {
    if (session.questions.erase(id)) events.question_closed(session, id, reason);
}

}  // namespace mcpkit::host
