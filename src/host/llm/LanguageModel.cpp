#include "host/llm/LanguageModel.hpp"

#include "host/llm/AnthropicModel.hpp"
#include "host/llm/GeminiModel.hpp"
#include "host/llm/OpenAiChatModel.hpp"
#include "host/llm/TextToolCalls.hpp"

#include <cctype>
#include <cstdlib>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

std::optional<std::string> environment(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    return std::string(value);
}

}  // namespace

mcp::HttpClientOptions provider_http_options(const ModelSettings& settings) {
    mcp::HttpClientOptions options;
    options.ca_file = settings.ca_file;
    // The answer's head may be slow too (a local model loading, a long prompt read first).
    options.timeout = std::max<std::chrono::milliseconds>(std::chrono::seconds(60), settings.silence_limit);
    options.idle_timeout = settings.silence_limit;
    // A provider's key rides in a header of its own (x-api-key, x-goog-api-key) that a redirect to
    // another host would carry along; no provider's API redirects, so none is followed.
    options.max_redirects = 0;
    return options;
}

bool is_model_name(std::string_view name) {
    if (name.empty() || name.size() > 200 || name.find("..") != std::string_view::npos) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view("._:/@+-").find(c) == std::string_view::npos)
            return false;
    return true;
}

std::unique_ptr<LanguageModel> make_language_model(ModelSettings settings) {
    bool text_calls = settings.text_tool_calls;
    std::unique_ptr<LanguageModel> model;
    if (settings.provider == "gemini") model = std::make_unique<GeminiModel>(std::move(settings));
    else if (settings.provider == "openai") model = std::make_unique<OpenAiChatModel>(std::move(settings));
    else if (settings.provider == "anthropic") model = std::make_unique<AnthropicModel>(std::move(settings));
    else
        throw std::invalid_argument("unknown LLM provider \"" + settings.provider +
                                    "\"; use \"gemini\", \"anthropic\" or \"openai\"");
    return text_calls ? with_text_tool_calls(std::move(model)) : std::move(model);
}

ModelSettings default_model_settings(const std::string& provider) {
    ModelSettings settings;
    settings.provider = provider;
    if (provider == "gemini") {
        settings.api_key = environment("GEMINI_API_KEY").value_or("");
        settings.model = environment("GEMINI_MODEL").value_or("gemini-2.5-flash");
        settings.base_url = environment("GEMINI_BASE_URL").value_or("https://generativelanguage.googleapis.com");
    } else if (provider == "anthropic") {
        settings.api_key = environment("ANTHROPIC_API_KEY").value_or("");
        settings.model = environment("ANTHROPIC_MODEL").value_or("claude-sonnet-4-5");
        settings.base_url = environment("ANTHROPIC_BASE_URL").value_or("https://api.anthropic.com");
    } else {
        settings.api_key = environment("OPENAI_API_KEY").value_or("");
        settings.model = environment("OPENAI_MODEL").value_or("gpt-4o-mini");
        settings.base_url = environment("OPENAI_BASE_URL").value_or("https://api.openai.com/v1");
    }
    return settings;
}

std::optional<ModelSettings> model_settings_from_environment() {
    ModelSettings settings;
    if (environment("GEMINI_API_KEY")) settings = default_model_settings("gemini");
    else if (environment("ANTHROPIC_API_KEY")) settings = default_model_settings("anthropic");
    else if (environment("OPENAI_API_KEY") || environment("OPENAI_BASE_URL")) settings = default_model_settings("openai");
    else return std::nullopt;
    if (auto text = environment("MCPKIT_TEXT_TOOL_CALLS")) settings.text_tool_calls = *text == "1" || *text == "true";
    // Gemini, Claude and OpenAI's own models take pictures; a local OpenAI-compatible server
    // (llama.cpp, Ollama, vLLM) usually serves a text model that would refuse the request.
    if (settings.provider == "openai")
        settings.images = settings.base_url.find("api.openai.com") != std::string::npos ||
                          settings.base_url.find(".openai.azure.com") != std::string::npos;
    if (auto images = environment("MCPKIT_MODEL_IMAGES")) settings.images = *images == "1" || *images == "true";
    if (auto window = environment("MAX_TOKEN_COUNT")) {
        try {
            settings.context_tokens = std::max<long long>(1024, std::stoll(*window));
        } catch (const std::exception&) {
        }
    }
    return settings;
}

}  // namespace mcpkit::host
