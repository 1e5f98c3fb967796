#pragma once
// Anthropic's Messages API (POST /v1/messages, streamed). What differs from the others: the system
// prompt is a top-level field; tool results go back as `tool_result` blocks of the next user
// message; `max_tokens` is required; and with extended thinking, the signed thinking blocks of an
// answer that called tools go back unchanged with it, or the next request is refused.

#include "host/llm/LanguageModel.hpp"
#include "host/llm/ProviderConnections.hpp"

namespace mcpkit::host {

class AnthropicModel : public LanguageModel {
public:
    explicit AnthropicModel(ModelSettings settings);
    boost::asio::awaitable<ModelReply> generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                               AnswerSink& sink) override;
    const ModelSettings& settings() const override { return settings_; }
    void close_idle_connections() override { connections_.close_idle(); }
    boost::asio::awaitable<std::vector<ModelChoice>> list_models(mcp::CancellationToken cancellation) override;

    /// The request body for `request` (public for tests).
    std::string request_text(const ModelRequest& request);

private:
    std::vector<std::pair<std::string, std::string>> headers() const;
    ModelSettings settings_;
    ProviderConnections connections_;
    ToolList cached_tools_;
    std::string cached_tools_text_;
};

}  // namespace mcpkit::host
