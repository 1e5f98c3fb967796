#pragma once
// One streamed LLM request: POSTs `request` on one of the provider's connections, feeds the server-sent events to `on_event` as they
// arrive, and turns what goes wrong into ModelError (a refusal quoting the provider's message, a
// broken stream as a transient failure), the same way for every provider. The text the events of
// one network read carry goes on together: one piece, written to the page at once.

#include "host/llm/LanguageModel.hpp"
#include "host/llm/ProviderConnections.hpp"

namespace mcpkit::host {

/// The answer's text as the events give it, handed on once per network read.
class ReadText {
public:
    explicit ReadText(AnswerSink& sink) : sink_(sink) {}
    void add(std::string_view piece) { unsent_ += piece; }
    /// Hands on what was added since the last time, if anything.
    void flush() {
        if (unsent_.empty()) return;
        sink_.text(unsent_);
        unsent_.clear();
    }

private:
    AnswerSink& sink_;
    std::string unsent_;
};

/// `on_event` gets each event's data and adds the text it carries to `text`.
boost::asio::awaitable<void> stream_events(ProviderConnections& connections, mcp::HttpRequest request,
                                           mcp::CancellationToken cancellation, std::string_view provider,
                                           const std::function<void(std::string_view data)>& on_event, ReadText& text);

}  // namespace mcpkit::host
