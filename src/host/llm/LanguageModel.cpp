#include "host/llm/LanguageModel.hpp"

#include "host/llm/GeminiModel.hpp"
#include "host/llm/OpenAiChatModel.hpp"
#include "host/llm/TextToolCalls.hpp"

#include <boost/json/parse.hpp>

#include <cstdlib>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

std::optional<std::string> environment(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    return std::string(value);
}

// "2s", "1.5s" (Gemini's RetryInfo) or "2" (Retry-After seconds).
std::optional<std::chrono::milliseconds> parse_delay(std::string_view text) {
    if (!text.empty() && text.back() == 's') text.remove_suffix(1);
    try {
        std::size_t used = 0;
        double seconds = std::stod(std::string(text), &used);
        if (used == 0 || seconds < 0) return std::nullopt;
        return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

mcp::HttpClientOptions provider_http_options(const ModelSettings& settings) {
    mcp::HttpClientOptions options;
    options.ca_file = settings.ca_file;
    // The answer's head may be slow too (a local model loading, a long prompt read first).
    options.timeout = std::max<std::chrono::milliseconds>(std::chrono::seconds(60), settings.silence_limit);
    options.idle_timeout = settings.silence_limit;
    return options;
}

std::unique_ptr<LanguageModel> make_language_model(ModelSettings settings) {
    bool text_calls = settings.text_tool_calls;
    std::unique_ptr<LanguageModel> model;
    if (settings.provider == "gemini") model = std::make_unique<GeminiModel>(std::move(settings));
    else if (settings.provider == "openai") model = std::make_unique<OpenAiChatModel>(std::move(settings));
    else throw std::invalid_argument("unknown LLM provider \"" + settings.provider + "\"; use \"gemini\" or \"openai\"");
    return text_calls ? with_text_tool_calls(std::move(model)) : std::move(model);
}

std::optional<ModelSettings> model_settings_from_environment() {
    ModelSettings settings;
    if (auto key = environment("GEMINI_API_KEY")) {
        settings.provider = "gemini";
        settings.api_key = *key;
        settings.model = environment("GEMINI_MODEL").value_or("gemini-2.5-flash");
        settings.base_url = environment("GEMINI_BASE_URL").value_or("https://generativelanguage.googleapis.com");
    } else if (auto key = environment("OPENAI_API_KEY"), base = environment("OPENAI_BASE_URL"); key || base) {
        settings.provider = "openai";
        settings.api_key = key.value_or("");
        settings.model = environment("OPENAI_MODEL").value_or("gpt-4o-mini");
        settings.base_url = base.value_or("https://api.openai.com/v1");
    } else {
        return std::nullopt;
    }
    if (auto text = environment("MCPKIT_TEXT_TOOL_CALLS")) settings.text_tool_calls = *text == "1" || *text == "true";
    if (auto window = environment("MAX_TOKEN_COUNT")) {
        try {
            settings.context_tokens = std::max<long long>(1024, std::stoll(*window));
        } catch (const std::exception&) {
        }
    }
    return settings;
}

ModelError model_error_from_response(const mcp::HttpResponse& response, std::string_view provider) {
    std::string message;
    std::optional<std::chrono::milliseconds> retry_after;
    if (auto header = response.header("Retry-After")) retry_after = parse_delay(*header);
    boost::system::error_code ec;
    json::value body = json::parse(response.body, ec);
    // Gemini sometimes wraps its error in an array.
    if (!ec && body.is_array() && !body.get_array().empty()) body = body.get_array().front();
    if (!ec && body.is_object()) {
        if (auto* error = body.get_object().if_contains("error"); error && error->is_object()) {
            const auto& object = error->get_object();
            if (auto* text = object.if_contains("message"); text && text->is_string()) message = std::string(text->get_string());
            if (auto* details = object.if_contains("details"); details && details->is_array())
                for (const auto& detail : details->get_array())
                    if (detail.is_object())
                        if (auto* delay = detail.get_object().if_contains("retryDelay"); delay && delay->is_string())
                            retry_after = parse_delay(delay->get_string());
        }
    }
    if (message.empty()) message = response.body.substr(0, 300);
    int status = response.status;
    bool transient = status == 408 || status == 429 || status >= 500;
    std::string hint;
    if (status == 401 || status == 403)
        hint = provider == "gemini" ? " (check GEMINI_API_KEY)" : " (check OPENAI_API_KEY)";
    return ModelError(std::string(provider) + " answered " + std::to_string(status) + ": " + message + hint, status,
                      transient, retry_after);
}

}  // namespace mcpkit::host
