#include "host/llm/ModelErrors.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cmath>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

// "2s", "1.5s" (Gemini's RetryInfo) or "2" (Retry-After seconds); `scale` 1000 for seconds, 1 for
// milliseconds. A delay past an hour, or "inf", is no delay anyone waits for.
std::optional<std::chrono::milliseconds> parse_delay(std::string_view text, double scale = 1000) {
    if (!text.empty() && text.back() == 's') text.remove_suffix(1);
    try {
        std::size_t used = 0;
        double amount = std::stod(std::string(text), &used) * scale;
        if (used == 0 || !std::isfinite(amount) || amount < 0 || amount > 3600e3) return std::nullopt;
        return std::chrono::milliseconds(static_cast<long long>(amount));
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
/// `{"error": {…}}` (Gemini sometimes inside an array), Anthropic's error object beside `"type": "error"`.
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

/// The length of the UTF-8 character at `at`, or 0 when the bytes there are not one (a stray
/// continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short).
std::size_t utf8_length_at(std::string_view text, std::size_t at) {
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    unsigned char first = byte(0);
    if (first < 0x80) return 1;
    std::size_t length = first >= 0xC2 && first <= 0xDF ? 2 : first >= 0xE0 && first <= 0xEF ? 3 : first >= 0xF0 && first <= 0xF4 ? 4 : 0;
    if (!length || at + length > text.size()) return 0;
    char32_t code = first & (0xFF >> (length + 1));
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80) return 0;
        code = (code << 6) | (byte(i) & 0x3F);
    }
    if ((length == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) || (length == 4 && (code < 0x10000 || code > 0x10FFFF)))
        return 0;
    return length;
}

/// At most `limit` bytes of `text` as valid UTF-8: a provider's body may be Latin-1 HTML, or cut
/// mid-character, and a page's WebSocket closes on text that is not UTF-8 (the history would
/// carry it on every reconnect). Bad bytes become U+FFFD; the cut falls between characters.
std::string shortened(std::string_view text, std::size_t limit = 300) {
    std::string out;
    out.reserve(std::min(text.size(), limit) + 3);
    for (std::size_t at = 0; at < text.size();) {
        std::size_t length = utf8_length_at(text, at);
        std::string_view character = length ? text.substr(at, length) : std::string_view("\xEF\xBF\xBD");
        if (out.size() + character.size() > limit) return out + "…";
        out += character;
        at += length ? length : 1;
    }
    return out;
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
    if (auto header = response.header("retry-after-ms")) retry_after = parse_delay(*header, 1);
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

ModelError answer_too_long_error(std::string_view provider) {
    return ModelError(provider_title(provider) + "'s answer grew past " + std::to_string(max_streamed_answer >> 20) +
                          " MiB and was cut there. Ask for a shorter answer.",
                      std::string(provider) + " streamed more than " + std::to_string(max_streamed_answer) + " bytes",
                      0, false);
}

ModelError too_many_tool_calls_error(std::string_view provider) {
    return ModelError(provider_title(provider) + "'s answer asked for more than " +
                          std::to_string(max_tool_calls_per_answer) + " tool calls at once; none of them was run.",
                      std::string(provider) + " sent more than " + std::to_string(max_tool_calls_per_answer) +
                          " tool calls in one answer",
                      0, false);
}

}  // namespace mcpkit::host
