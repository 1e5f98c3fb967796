#include "host/llm/ModelErrors.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

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

std::string key_variable(std::string_view provider) {
    if (provider == "gemini") return "GEMINI_API_KEY";
    if (provider == "anthropic") return "ANTHROPIC_API_KEY";
    return "OPENAI_API_KEY";
}

/// The provider's own error object, whichever way it wraps it: OpenAI's and Gemini's
/// `{"error": {…}}` (Gemini sometimes inside an array), Anthropic's `{"type": "error", "error": {…}}`.
const json::object* error_object(const json::value& body) {
    const json::value* value = &body;
    if (value->is_array() && !value->get_array().empty()) value = &value->get_array().front();
    if (!value->is_object()) return nullptr;
    auto* error = value->get_object().if_contains("error");
    return error && error->is_object() ? &error->get_object() : nullptr;
}

/// "Unsupported parameter: 'max_tokens' is not …": the name between the first quotes.
std::string quoted_name(std::string_view message) {
    auto open = message.find('\'');
    if (open == std::string_view::npos) return {};
    auto close = message.find('\'', open + 1);
    if (close == std::string_view::npos) return {};
    return std::string(message.substr(open + 1, close - open - 1));
}

std::string shortened(std::string_view text, std::size_t limit = 300) {
    if (text.size() <= limit) return std::string(text);
    return std::string(text.substr(0, limit)) + "…";
}

}  // namespace

std::string provider_title(std::string_view provider) {
    if (provider == "gemini") return "Gemini";
    if (provider == "anthropic") return "Anthropic";
    return "The model server";
}

ModelError model_error_from_response(const mcp::HttpResponse& response, std::string_view provider) {
    std::string message;
    std::string type;  // OpenAI's code or type, Anthropic's type, Google's status
    std::string parameter;
    std::optional<std::chrono::milliseconds> retry_after;
    if (auto header = response.header("retry-after-ms"))
        if (auto delay = parse_delay(*header)) retry_after = std::chrono::milliseconds(delay->count() / 1000);
    if (auto header = response.header("Retry-After"); header && !retry_after) retry_after = parse_delay(*header);
    boost::system::error_code ec;
    json::value body = json::parse(response.body, ec);
    if (const json::object* error = ec ? nullptr : error_object(body)) {
        message = json_fields::text(*error, "message");
        type = json_fields::text(*error, "code");
        if (type.empty()) type = json_fields::text(*error, "type");
        if (type.empty()) type = json_fields::text(*error, "status");
        parameter = json_fields::text(*error, "param");
        if (auto* details = error->if_contains("details"); details && details->is_array())
            for (const auto& detail : details->get_array())
                if (detail.is_object())
                    if (auto* delay = detail.get_object().if_contains("retryDelay"); delay && delay->is_string())
                        retry_after = parse_delay(delay->get_string());
    }
    int status = response.status;
    std::string details = std::string(provider) + " answered " + std::to_string(status) +
                          (message.empty() ? (response.body.empty() ? "" : ": " + shortened(response.body))
                                           : ": " + message);
    if (!type.empty()) details += " (" + type + ")";
    std::string title = provider_title(provider);
    auto error = [&](std::string plain, bool transient) {
        return ModelError(plain, details, status, transient, retry_after);
    };
    if (status == 401 || status == 403)
        return error(title + " refused the API key. Check " + key_variable(provider) + " and start the host again.", false);
    // A billing limit, not a rate limit: waiting does not help (OpenAI's insufficient_quota).
    if (status == 429 && (type == "insufficient_quota" || message.find("exceeded your current quota") != std::string::npos))
        return error(title + " says this account's quota is used up. Check its plan and billing, then send again.", false);
    if (status == 429)
        return error(title + " is limiting requests (too many, or too large). Wait a little and send again.", true);
    if (status == 529 || type == "overloaded_error")
        return error(title + " is overloaded. Try again in a moment.", true);
    if (status == 408 || status >= 500)
        return error(title + " failed (HTTP " + std::to_string(status) + "). Try again in a moment.", true);
    if (status == 404)
        return error(title + " does not know this model or address (HTTP 404). Check the model name and the base URL.",
                     false);
    ModelError refused = error(title + " refused the request: " + (message.empty() ? "HTTP " + std::to_string(status)
                                                                                   : shortened(message)),
                               false);
    bool unsupported = type == "unsupported_parameter" || type == "unsupported_value" ||
                       message.find("nsupported parameter") != std::string::npos ||
                       message.find("nsupported value") != std::string::npos;
    if (status == 400 && unsupported) refused.unsupported_parameter = parameter.empty() ? quoted_name(message) : parameter;
    return refused;
}

ModelError connection_error(std::string_view provider, const std::string& what) {
    std::string title = provider_title(provider);
    std::string details = std::string(provider) + ": " + what;
    auto contains = [&](std::string_view text) { return what.find(text) != std::string::npos; };
    if (contains("certificate"))
        return ModelError(title + "'s certificate is not trusted. For a private certificate authority, start the host "
                                  "with --llm-ca-file.",
                          details, 0, false);
    if (contains("cannot resolve") || contains("cannot connect"))
        return ModelError("Could not reach " + (provider == "openai" ? std::string("the model server") : title) +
                              ". Check that it is running and that the base URL is right.",
                          details, 0, true);
    if (contains("nothing came for"))
        return ModelError(title + " went silent, so the answer was broken off.", details, 0, true);
    if (contains("no answer from"))
        return ModelError(title + " did not answer in time.", details, 0, true);
    return ModelError("The connection to " + (provider == "openai" ? std::string("the model server") : title) +
                          " broke off.",
                      details, 0, true);
}

ModelError error_event(std::string_view provider, const json::value& error) {
    std::string message;
    if (error.is_object()) message = json_fields::text(error.get_object(), "message");
    else if (error.is_string()) message = std::string(error.get_string());
    std::string details = std::string(provider) + " sent an error mid-answer: " + shortened(json::serialize(error));
    return ModelError(provider_title(provider) + " failed mid-answer" + (message.empty() ? "." : ": " + shortened(message)),
                      details, 0, true);
}

ModelError empty_answer_error(std::string_view provider) {
    return ModelError(provider_title(provider) + " sent an empty answer.",
                      std::string(provider) + " answered 200 with no event and no text", 0, true);
}

ModelError unreadable_event_error(std::string_view provider, std::string_view data) {
    return ModelError(provider_title(provider) + " sent an answer the host cannot read.",
                      std::string(provider) + " sent an event that is not JSON: " + shortened(data, 200), 0, true);
}

}  // namespace mcpkit::host
