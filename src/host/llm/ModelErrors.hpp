#pragma once
// How a provider's failures read in the chat. Each failure is said once, in plain words: what
// went wrong and what to do ("The model provider refused the API key. Check OPENAI_API_KEY …").
// The provider's status, its own message and the address go in ModelError::details, shown folded
// and logged, never as the message itself.

#include "host/llm/LanguageModel.hpp"

#include <mcp/transport/HttpClient.hpp>

#include <string>
#include <string_view>

namespace mcpkit::host {

/// "Gemini", "Anthropic", or "The model server" for an OpenAI-compatible one (often a local one).
std::string provider_title(std::string_view provider);

/// A refusal or failure answered with an HTTP status: which ones are worth retrying (429 unless
/// the quota is used up, 5xx, 529), the provider's own message, its retry delay (Retry-After,
/// retry-after-ms, Gemini's RetryInfo), and a parameter it named as unsupported.
ModelError model_error_from_response(const mcp::HttpResponse& response, std::string_view provider);

/// The connection failed or broke (mcp::HttpError's text): unreachable, an untrusted
/// certificate, silence past the limit, a stream cut off. All but the certificate are transient.
ModelError connection_error(std::string_view provider, const std::string& what);

/// An error event inside a 200 stream (`{"error": …}`, Anthropic's `event: error`): transient, as
/// providers send it for overload mid-answer.
ModelError error_event(std::string_view provider, const boost::json::value& error);

/// A 200 answer with nothing in it: no event, no text, no call. Gateways do this when the model
/// behind them failed; retried.
ModelError empty_answer_error(std::string_view provider);

/// An event that is not JSON even after mending split surrogates: the stream cannot be read.
ModelError unreadable_event_error(std::string_view provider, std::string_view data);

/// The most a streamed answer may weigh, and the most tool calls one answer may hold: past them
/// the stream is broken or hostile, and keeping it would grow the host without bound.
inline constexpr std::size_t max_streamed_answer = std::size_t{32} << 20;
inline constexpr std::size_t max_tool_calls_per_answer = 1000;

/// An answer past max_streamed_answer; not retried (the same request would do it again).
ModelError answer_too_long_error(std::string_view provider);
/// An answer with more than max_tool_calls_per_answer calls; not retried.
ModelError too_many_tool_calls_error(std::string_view provider);

}  // namespace mcpkit::host
