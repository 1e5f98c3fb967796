#pragma once
// One streamed LLM request: POSTs `request` on one of the provider's connections, feeds the server-sent events to `on_event` as they
// arrive, and turns what goes wrong into ModelError (a refusal quoting the provider's message, a
// broken stream as a transient failure), the same way for every provider. The text the events of
// one network read carry goes on together: one piece, written to the page at once.

#include "host/llm/LanguageModel.hpp"
#include "host/llm/ProviderConnections.hpp"
#include "host/llm/ScratchJson.hpp"
#include "host/llm/SurrogateHalves.hpp"

namespace mcpkit::host {

/// The answer as its events give it: text and reasoning added to the reply (a character split
/// between events put together again) and handed on to the sink once per network read.
class StreamedAnswer {
public:
    StreamedAnswer(AnswerSink& sink, ModelReply& reply) : sink_(sink), reply_(reply) {}
    void add_text(std::string_view piece);
    void add_reasoning(std::string_view piece);
    /// Hands on what was added since the last time, if anything.
    void flush();
    /// The end of the stream: a half character left alone is shown as U+FFFD.
    void finish();
    /// True once an event carried anything at all (text, reasoning, a call, a finish reason).
    bool heard = false;

private:
    AnswerSink& sink_;
    ModelReply& reply_;
    SurrogateJoiner text_joiner_;
    SurrogateJoiner reasoning_joiner_;
    std::string unsent_text_;
    std::string unsent_reasoning_;
};

/// `on_event` gets each event's name (empty for plain `data:` events) and data.
using EventHandler = std::function<void(std::string_view name, std::string_view data)>;

/// Throws ModelError for a refusal, a broken or empty stream, or a stop.
boost::asio::awaitable<void> stream_events(ProviderConnections& connections, mcp::HttpRequest request,
                                           mcp::CancellationToken cancellation, std::string_view provider,
                                           const EventHandler& on_event, StreamedAnswer& answer);

/// The handler for a stream of JSON events: each event's data parsed (in `scratch`, see
/// ScratchJson) and handed to `read` as an object. OpenAI's closing "[DONE]" is skipped; anything
/// else that is not a JSON object fails the answer as unreadable.
EventHandler json_object_events(ScratchJson& scratch, std::string_view provider,
                                std::function<void(const boost::json::object&)> read);

/// A request answered with one JSON document (a provider's model list): the document, or
/// ModelError as for an answer (a refusal, a broken connection, a body that is not JSON).
boost::asio::awaitable<boost::json::value> fetch_json(ProviderConnections& connections, mcp::HttpRequest request,
                                                      mcp::CancellationToken cancellation, std::string_view provider);

}  // namespace mcpkit::host
