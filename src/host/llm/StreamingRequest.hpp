#pragma once
// One streamed LLM request: POSTs `request`, feeds the server-sent events to `on_event` as they
// arrive, and turns what goes wrong into ModelError (a refusal quoting the provider's message, a
// broken stream as a transient failure), the same way for every provider. `after_read` is called
// once the events of one network read are handled: the place to pass on what they produced
// together (a tick's text deltas as one piece, written to the page at once).

#include "host/llm/LanguageModel.hpp"

namespace mcpkit::host {

boost::asio::awaitable<void> stream_events(mcp::HttpClient& http, mcp::HttpRequest request, std::string_view provider,
                                           const std::function<void(std::string_view data)>& on_event,
                                           const std::function<void()>& after_read = {});

}  // namespace mcpkit::host
