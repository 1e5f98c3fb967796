#pragma once
// Gemini's native API, streamed (streamGenerateContent?alt=sse). What bites (shared/reference/
// llm-and-hosts.md §1): only the roles "user" and "model" (tool results go back as
// functionResponse parts of a user turn), tool schemas as parametersJsonSchema (the legacy
// `parameters` refuses $schema, additionalProperties, type arrays …), a function call's
// thoughtSignature echoed back verbatim, and a response that must be an object. Thought parts are
// reasoning, not answer; finishReason SAFETY, RECITATION and MAX_TOKENS end the answer with the
// reason said.

#include "host/llm/LanguageModel.hpp"
#include "host/llm/ProviderConnections.hpp"

namespace mcpkit::host {

class GeminiModel : public LanguageModel {
public:
    explicit GeminiModel(ModelSettings settings);
    boost::asio::awaitable<ModelReply> generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                               AnswerSink& sink) override;
    const ModelSettings& settings() const override { return settings_; }
    void close_idle_connections() override { connections_.close_idle(); }
    boost::asio::awaitable<std::vector<ModelChoice>> list_models(mcp::CancellationToken cancellation) override;

    /// The request body for `request` (public for tests); without the tools when `with_tools` is false.
    boost::json::object request_body(const ModelRequest& request, bool with_tools = true) const;
    /// The same, serialized, with the tools' part reused from the last request with that list.
    std::string request_text(const ModelRequest& request);

private:
    ModelSettings settings_;
    ProviderConnections connections_;
    ToolList cached_tools_;
    std::string cached_tools_text_;
};

/// An MCP input schema as Gemini's parametersJsonSchema takes it: $schema and keywords outside
/// the documented list dropped, recursively.
boost::json::object gemini_parameters_schema(const boost::json::object& input_schema);

}  // namespace mcpkit::host
