#include "host/llm/StreamingRequest.hpp"

#include "host/llm/ModelErrors.hpp"

#include <mcp/transport/SseParser.hpp>

#include <boost/beast/core/string.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace {

/// An answer may be this large when it comes whole.
constexpr std::size_t max_whole_answer = 16u << 20;

/// A 200 answer that held no events: one JSON object (an answer asked for whole, or from a server
/// that ignores "stream"), or an array of them (Gemini's stream without alt=sse), each handed over
/// as an event's data would be. False when the body is not JSON (or is empty).
bool handle_whole_answer(std::string_view body, const EventHandler& on_event) {
    boost::system::error_code ec;
    boost::json::value answer = boost::json::parse(body, ec);
    if (ec) return false;
    if (answer.is_array()) {
        for (const auto& item : answer.get_array()) on_event("message", boost::json::serialize(item));
        return !answer.get_array().empty();
    }
    on_event("message", body);
    return true;
}

/// Sends `request` with its body going to `on_bytes`; a connection that fails or is stopped is a
/// ModelError. A gateway that compresses would otherwise hand the parser gzip (the client does not
/// decode it, and a stream held back until it can be decoded is no stream): identity is asked for.
boost::asio::awaitable<mcp::HttpResponse> send_to_provider(ProviderConnections& connections, mcp::HttpRequest request,
                                                           mcp::CancellationToken cancellation, std::string_view provider,
                                                           std::function<void(std::string_view)> on_bytes) {
    request.headers.emplace_back("Accept-Encoding", "identity");
    mcp::HttpResponse response;
    std::string broken;
    try {
        response = co_await connections.send_streaming(std::move(request), cancellation, std::move(on_bytes));
    } catch (const mcp::HttpError& e) {
        broken = e.what();
    }
    if (cancellation.cancelled()) throw ModelError("Stopped.", cancellation.reason(), 0, false);
    if (!broken.empty()) throw connection_error(provider, broken);
    co_return response;
}

}  // namespace

void StreamedAnswer::add_text(std::string_view piece) {
    heard = true;
    std::string_view joined = text_joiner_.join(piece);
    reply_.text += joined;
    unsent_text_ += joined;
}

void StreamedAnswer::add_reasoning(std::string_view piece) {
    heard = true;
    std::string_view joined = reasoning_joiner_.join(piece);
    reply_.reasoning += joined;
    unsent_reasoning_ += joined;
}

void StreamedAnswer::flush() {
    if (!unsent_reasoning_.empty()) {
        sink_.reasoning(unsent_reasoning_);
        unsent_reasoning_.clear();
    }
    if (!unsent_text_.empty()) {
        sink_.text(unsent_text_);
        unsent_text_.clear();
    }
}

void StreamedAnswer::finish() {
    std::string_view text = text_joiner_.finish();
    reply_.text += text;
    unsent_text_ += text;
    std::string_view reasoning = reasoning_joiner_.finish();
    reply_.reasoning += reasoning;
    unsent_reasoning_ += reasoning;
    flush();
}

boost::asio::awaitable<void> stream_events(ProviderConnections& connections, mcp::HttpRequest request,
                                           mcp::CancellationToken cancellation, std::string_view provider,
                                           const EventHandler& on_event, StreamedAnswer& answer) {
    // Stopped before the request went out (while a prompt or resource was fetched): not sent.
    if (cancellation.cancelled()) throw ModelError("Stopped.", cancellation.reason(), 0, false);
    // An event past 8 MiB is a stream that never ends its event.
    mcp::SseParser events(8u << 20);
    // A refusal's body is JSON, not events, and so is an answer asked for whole (or from a server
    // that does not stream): the body is kept until an event shows the answer is a stream.
    std::string head_of_body;
    bool streaming = false;
    bool too_long = false;  // past max_whole_answer: kept no further, so never kept with a gap
    std::size_t received = 0;
    std::function<void(mcp::SseEvent&)> on_data = [&](mcp::SseEvent& event) {
        streaming = true;
        on_event(event.type, event.data);
    };
    std::function<void(std::string_view)> on_bytes = [&](std::string_view bytes) {
        received += bytes.size();
        if (received > max_streamed_answer) {
            answer.flush();  // what was read stays shown, and kept with the error
            throw answer_too_long_error(provider);
        }
        too_long = too_long || head_of_body.size() + bytes.size() > max_whole_answer;
        if (!streaming && !too_long) head_of_body.append(bytes);
        try {
            events.feed(bytes, on_data);
        } catch (...) {
            answer.flush();  // what came before an error event is shown, and kept
            throw;
        }
        answer.flush();
    };
    mcp::HttpResponse response =
        co_await send_to_provider(connections, std::move(request), cancellation, provider, std::move(on_bytes));
    if (response.status != 200) {
        response.body = std::move(head_of_body);
        throw model_error_from_response(response, provider);
    }
    if (auto encoding = response.header("Content-Encoding");
        encoding && !encoding->empty() && !boost::beast::iequals(*encoding, "identity"))
        throw ModelError(provider_title(provider) + " sent a compressed answer the host cannot read.",
                         std::string(provider) + " answered with Content-Encoding: " + std::string(*encoding) +
                             " though the request asked for identity",
                         0, false);
    events.finish(on_data);  // some servers end without the last blank line
    if (!streaming && !handle_whole_answer(head_of_body, on_event)) throw empty_answer_error(provider);
    answer.finish();
}

EventHandler json_object_events(ScratchJson& scratch, std::string_view provider,
                                std::function<void(const boost::json::object&)> read) {
    return [&scratch, provider, read = std::move(read)](std::string_view, std::string_view data) {
        if (data == "[DONE]") return;
        const boost::json::value* event = scratch.parse(data);
        if (!event || !event->is_object()) throw unreadable_event_error(provider, data);
        read(event->get_object());
    };
}

boost::asio::awaitable<boost::json::value> fetch_json(ProviderConnections& connections, mcp::HttpRequest request,
                                                      mcp::CancellationToken cancellation, std::string_view provider) {
    std::string body;
    bool too_long = false;
    std::function<void(std::string_view)> on_bytes = [&](std::string_view bytes) {
        too_long = too_long || body.size() + bytes.size() > max_whole_answer;
        if (!too_long) body.append(bytes);
    };
    mcp::HttpResponse response =
        co_await send_to_provider(connections, std::move(request), cancellation, provider, std::move(on_bytes));
    if (response.status != 200) {
        response.body = std::move(body);
        throw model_error_from_response(response, provider);
    }
    if (too_long) throw unreadable_event_error(provider, body.substr(0, 200));
    boost::system::error_code ec;
    boost::json::value document = boost::json::parse(body, ec);
    if (ec) throw unreadable_event_error(provider, body.substr(0, 200));
    co_return document;
}

}  // namespace mcpkit::host
