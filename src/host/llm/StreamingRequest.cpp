#include "host/llm/StreamingRequest.hpp"

#include <mcp/transport/SseParser.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace {

/// An answer may be this large when it comes whole.
constexpr std::size_t max_whole_answer = 16u << 20;

/// A 200 answer that held no events: one JSON object (an answer asked for whole, or from a server
/// that ignores "stream"), or an array of them (Gemini's stream without alt=sse), each handed over
/// as an event's data would be.
void handle_whole_answer(std::string_view body, const std::function<void(std::string_view)>& on_event) {
    boost::system::error_code ec;
    boost::json::value answer = boost::json::parse(body, ec);
    if (ec) return;  // no events and no JSON: an empty answer (a stream of comments, say)
    if (answer.is_array()) {
        for (const auto& item : answer.get_array()) on_event(boost::json::serialize(item));
        return;
    }
    on_event(body);
}

}  // namespace

boost::asio::awaitable<void> stream_events(ProviderConnections& connections, mcp::HttpRequest request,
                                           mcp::CancellationToken cancellation, std::string_view provider,
                                           const std::function<void(std::string_view)>& on_event, ReadText& text) {
    // Stopped before the request went out (while a prompt or resource was fetched): not sent.
    if (cancellation.cancelled()) throw ModelError("stopped: " + cancellation.reason(), 0, false);
    // An event past 8 MiB is a stream that never ends its event.
    mcp::SseParser events(8u << 20);
    // A refusal's body is JSON, not events, and so is an answer asked for whole (or from a server
    // that does not stream): the body is kept until an event shows the answer is a stream.
    std::string head_of_body;
    bool streaming = false;
    std::function<void(mcp::SseEvent&)> on_data = [&](mcp::SseEvent& event) {
        streaming = true;
        on_event(event.data);
    };
    std::function<void(std::string_view)> on_bytes = [&](std::string_view bytes) {
        if (!streaming && head_of_body.size() + bytes.size() <= max_whole_answer) head_of_body.append(bytes);
        events.feed(bytes, on_data);
        text.flush();
    };
    mcp::HttpResponse response;
    std::string broken;
    try {
        response = co_await connections.send_streaming(std::move(request), cancellation, std::move(on_bytes));
    } catch (const mcp::HttpError& e) {
        broken = e.what();
    }
    if (cancellation.cancelled()) throw ModelError("stopped: " + cancellation.reason(), 0, false);
    if (!broken.empty()) throw ModelError(std::string(provider) + "'s stream broke off: " + broken, 0, true);
    if (response.status != 200) {
        response.body = std::move(head_of_body);
        throw model_error_from_response(response, provider);
    }
    events.finish(on_data);  // some servers end without the last blank line
    if (!streaming) handle_whole_answer(head_of_body, on_event);
    text.flush();
}

}  // namespace mcpkit::host
