#pragma once
// What the conversation needs from an LLM: one streamed answer to a history, as text pieces and
// tool calls. Each provider (Gemini, OpenAI-compatible chat completions) translates the history
// to its wire format and back, and owns its HTTP connections; the fenced-JSON text format stands
// in for models without native tool calling.

#include "host/history/ChatMessage.hpp"
#include "host/history/TokenUsage.hpp"

#include <mcp/Cancellation.hpp>
#include <mcp/transport/HttpClient.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::host {

struct ToolDeclaration {
    std::string name;  ///< qualified: server__tool
    std::string description;
    boost::json::object input_schema;
};

/// The tools offered, shared: the same list serves every request until the servers change, and
/// the providers keep its serialized form for as long as they see the same list.
using ToolList = std::shared_ptr<const std::vector<ToolDeclaration>>;

struct ModelRequest {
    std::string system_prompt;
    /// The messages to send, in order (a window onto the session's history, not a copy).
    std::span<const ChatMessage> history;
    ToolList tools;  ///< null or empty: none
    /// The most the answer may take, when someone set it (--max-tokens, a sampling request's
    /// maxTokens); otherwise the provider's own default (which a thinking model needs: a small
    /// cap leaves it thinking with nothing written).
    std::optional<int> max_output_tokens;
    /// The model to ask, when the conversation picked one; empty: the settings' model.
    std::string model;
};

struct ModelReply {
    std::string text;
    /// The model's reasoning (reasoning_content, Gemini's thought parts, Anthropic's thinking):
    /// shown folded, never part of the answer.
    std::string reasoning;
    /// What the provider needs back with this answer next time (see ChatMessage::provider_data).
    boost::json::object provider_data;
    std::vector<ToolCall> tool_calls;
    TokenUsage usage;
    std::string finish_reason;  ///< the provider's own word
    /// Why the answer ended short, in plain words ("The model stopped: output limit reached."),
    /// or empty when it ended as the model meant.
    std::string ending;
};

/// The provider refused or failed. what() says it in plain words, for the person in the chat;
/// `details` is the technical side (the provider's status and message, the address), shown
/// folded and logged. `transient` errors (429, 5xx, a broken connection) are worth retrying;
/// `retry_after` is what the provider asked for, if it said.
class ModelError : public std::runtime_error {
public:
    ModelError(const std::string& message, std::string details, int status, bool transient,
               std::optional<std::chrono::milliseconds> retry_after = std::nullopt)
        : std::runtime_error(message), details(std::move(details)), status(status), transient(transient),
          retry_after(retry_after) {}
    ModelError(const std::string& message, int status, bool transient)
        : ModelError(message, std::string(), status, transient) {}
    std::string details;
    int status;  ///< HTTP status, 0 when none came
    bool transient;
    std::optional<std::chrono::milliseconds> retry_after;
    /// A parameter the provider named as unsupported (400), which a retry may leave out.
    std::string unsupported_parameter;
};

struct ModelSettings {
    std::string provider;  ///< "gemini", "openai" or "anthropic"
    std::string model;
    std::string api_key;
    std::string base_url;
    /// Sent only when set (--temperature): current models refuse anything but their default.
    std::optional<double> temperature;
    /// Sent only when set (--max-tokens); Anthropic requires one and gets 8192 otherwise.
    std::optional<int> max_output_tokens;
    /// Extended thinking (Anthropic's budget_tokens, Gemini's thinkingBudget), when set.
    std::optional<int> thinking_budget;
    /// Tools described in the system prompt and called with fenced JSON, for models without
    /// native tool calling.
    bool text_tool_calls = false;
    /// Whether the model takes pictures (a user's attached image, a tool's image result); a model
    /// that does not gets a line naming each instead. MCPKIT_MODEL_IMAGES=1 or 0 says so for any.
    bool images = true;
    /// Answers streamed as they are written (server-sent events). False asks for each answer
    /// whole (Gemini's generateContent, OpenAI's "stream": false), for gateways that hold a
    /// stream back until it ends anyway.
    bool stream = true;
    /// The model's context window, in tokens: history beyond it is pruned before each request.
    std::int64_t context_tokens = 32768;
    /// HTTPS: a PEM file of certificate authorities for the provider (tests use their own CA).
    std::string ca_file;
    /// The longest an answer may go silent before it counts as broken off (a stalled stream). No
    /// limit on a whole answer: a slow local model may write for long, and the user can stop it.
    std::chrono::milliseconds silence_limit{std::chrono::minutes(5)};
};

/// What an answer reports while it is being written. The default ignores it all (a sampling
/// request, whose answer goes to the server whole).
class AnswerSink {
public:
    virtual ~AnswerSink() = default;
    /// A piece of the answer's text, handed on once per network read.
    virtual void text(std::string_view piece) { (void)piece; }
    /// A piece of the model's reasoning, handed on the same way.
    virtual void reasoning(std::string_view piece) { (void)piece; }
};

/// A model the provider offers (for the page's model picker).
struct ModelChoice {
    std::string id;            ///< what requests name
    std::string display_name;  ///< the provider's friendlier name, or empty
};

class LanguageModel {
public:
    virtual ~LanguageModel() = default;
    /// One answer, streamed to `sink` as it arrives. Cancelling `cancellation` aborts it (a
    /// ModelError follows).
    virtual boost::asio::awaitable<ModelReply> generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                                       AnswerSink& sink) = 0;
    virtual const ModelSettings& settings() const = 0;
    /// Closes kept-alive connections that have been idle too long (called once a minute).
    virtual void close_idle_connections() {}
    /// The models the provider lists. Throws ModelError when it has no list (many local servers).
    virtual boost::asio::awaitable<std::vector<ModelChoice>> list_models(mcp::CancellationToken cancellation) = 0;
};

/// Whether `name` can name a model: letters, digits and . _ : / @ + -, no "..", at most 200 (it
/// becomes part of Gemini's URL, so a name from a page or a stored history is checked).
bool is_model_name(std::string_view name);

/// The model for `settings.provider`. Throws std::invalid_argument for an unknown provider.
std::unique_ptr<LanguageModel> make_language_model(ModelSettings settings);

/// Settings from the environment: GEMINI_API_KEY (GEMINI_MODEL, GEMINI_BASE_URL), else
/// ANTHROPIC_API_KEY (ANTHROPIC_MODEL, ANTHROPIC_BASE_URL), else OPENAI_API_KEY (OPENAI_MODEL,
/// OPENAI_BASE_URL; a base URL alone works for local servers needing no key, like llama.cpp or
/// Ollama). Nothing when none is set.
std::optional<ModelSettings> model_settings_from_environment();

/// The settings for `provider` with its defaults (key from its variable, model, base URL).
ModelSettings default_model_settings(const std::string& provider);

/// How a provider's connections are made: its CA, and how long an answer may take to start or go silent.
mcp::HttpClientOptions provider_http_options(const ModelSettings& settings);


}  // namespace mcpkit::host
