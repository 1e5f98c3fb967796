#pragma once
// OpenAI-compatible chat completions, streamed: OpenAI itself, llama.cpp's llama-server, Ollama,
// vLLM, DeepSeek, Groq, Gemini's compatibility layer. The presence of tool calls, not
// finish_reason, decides whether the model asked for tools (several backends say "stop" with
// calls present).
//
// Optional parameters are sent only when configured, and a server that names one as unsupported
// (400) gets the request again without it, once; the model is remembered as not taking it.

#include "host/llm/LanguageModel.hpp"
#include "host/llm/ProviderConnections.hpp"

#include <map>
#include <set>

namespace mcpkit::host {

class OpenAiChatModel : public LanguageModel {
public:
    explicit OpenAiChatModel(ModelSettings settings);
    boost::asio::awaitable<ModelReply> generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                               AnswerSink& sink) override;
    const ModelSettings& settings() const override { return settings_; }
    void close_idle_connections() override { connections_.close_idle(); }
    boost::asio::awaitable<std::vector<ModelChoice>> list_models(mcp::CancellationToken cancellation) override;

    /// The request body for `request` (public for tests), with the tools' part reused from the
    /// last request with that list.
    std::string request_text(const ModelRequest& request);

private:
    /// What a model was found not to take.
    struct Refusals {
        std::set<std::string, std::less<>> parameters;  ///< left out from now on
        /// The name the output limit goes under: OpenAI's own API wants max_completion_tokens
        /// (its reasoning models refuse max_tokens); other servers know max_tokens.
        std::optional<bool> completion_tokens_name;
    };
    /// Applies a 400's unsupported parameter; false when it is not one the host can leave out.
    bool learn_refusal(const std::string& model, const std::string& parameter);
    const std::string& model_of(const ModelRequest& request) const {
        return request.model.empty() ? settings_.model : request.model;
    }

    ModelSettings settings_;
    ProviderConnections connections_;
    bool openai_itself_ = false;  ///< api.openai.com or Azure: max_completion_tokens from the start
    std::map<std::string, Refusals, std::less<>> refusals_;
    ToolList cached_tools_;
    std::string cached_tools_text_;
};

}  // namespace mcpkit::host
