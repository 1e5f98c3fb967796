#pragma once
// One streamed LLM request: POSTs `request`, feeds the server-sent events to `on_event` as they
// arrive, and turns what goes wrong into ModelError (a refusal quoting the provider's message, a
// broken stream as a transient failure), the same way for every provider.

#include "host/llm/LanguageModel.hpp"

namespace mcpkit::host {

boost::asio::awaitable<void> stream_events(mcp::HttpClient& http, mcp::HttpRequest request, std::string_view provider,
                                           const std::function<void(std::string_view data)>& on_event);

}  // namespace mcpkit::host
