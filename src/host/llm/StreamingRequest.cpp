#include "host/llm/StreamingRequest.hpp"

#include "host/llm/EventStreamReader.hpp"

namespace mcpkit::host {

boost::asio::awaitable<void> stream_events(mcp::HttpClient& http, mcp::HttpRequest request, std::string_view provider,
                                           const std::function<void(std::string_view)>& on_event,
                                           ReadText& text) {
    EventStreamReader events;
    // A refusal's body is JSON, not events: the start of the body is kept until an event shows
    // the answer is a stream, so that the error can quote the provider.
    std::string head_of_body;
    bool streaming = false;
    std::function<void(std::string_view)> on_data = [&](std::string_view data) {
        streaming = true;
        on_event(data);
    };
    std::function<void(std::string_view)> on_bytes = [&](std::string_view bytes) {
        if (!streaming && head_of_body.size() < 65536) head_of_body.append(bytes);
        events.feed(bytes, on_data);
        text.flush();
    };
    mcp::HttpResponse response;
    std::string broken;
    try {
        response = co_await http.send_streaming(std::move(request), std::move(on_bytes));
    } catch (const mcp::HttpError& e) {
        broken = e.what();
    }
    if (!broken.empty()) throw ModelError(std::string(provider) + "'s stream broke off: " + broken, 0, true);
    if (response.status != 200) {
        response.body = std::move(head_of_body);
        throw model_error_from_response(response, provider);
    }
    events.finish(on_data);
    text.flush();
}

}  // namespace mcpkit::host
