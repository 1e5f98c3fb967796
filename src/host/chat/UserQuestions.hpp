#pragma once
// Asking the user: a question goes to every page of the session, stays open for pages that
// arrive while it waits, and is closed on every page once it is over (answered in one tab,
// expired, or its turn stopped).

#include "host/chat/ChatEvents.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace mcpkit::host {

class ChatSession;

/// Asks and waits: the page's answer, or nothing when the time ran out or the turn stopped.
boost::asio::awaitable<std::optional<boost::json::object>> ask_user(ChatSession& session, ChatEvents& events,
                                                                    Question question,
                                                                    std::chrono::milliseconds timeout);
/// The question `id` is over; the pages still showing it close it. Nothing when it was closed already.
void close_question(ChatSession& session, ChatEvents& events, const std::string& id, std::string_view reason);

}  // namespace mcpkit::host
