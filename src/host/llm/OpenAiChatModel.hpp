#pragma once
// OpenAI-compatible chat completions, streamed: OpenAI itself, llama.cpp's llama-server, Ollama,
// vLLM, and Gemini's compatibility layer. The presence of tool calls, not finish_reason, decides
// whether the model asked for tools (several backends say "stop" with calls present).

#include "host/llm/LanguageModel.hpp"
#include "host/llm/ProviderConnections.hpp"

namespace mcpkit::host {

class OpenAiChatModel : public LanguageModel {
public:
    explicit OpenAiChatModel(ModelSettings settings);
    boost::asio::awaitable<ModelReply> generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                               AnswerSink& sink) override;
    const ModelSettings& settings() const override { return settings_; }
    void close_idle_connections() override { connections_.close_idle(); }

    /// The request body for `request` (public for tests), with the tools' part reused from the
    /// last request with that list.
    std::string request_text(const ModelRequest& request);

private:
    ModelSettings settings_;
    ProviderConnections connections_;
    ToolList cached_tools_;
    std::string cached_tools_text_;
};

}  // namespace mcpkit::host
