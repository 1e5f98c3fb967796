#pragma once
// The tokens a conversation has used, as the providers count them.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string_view>

namespace mcpkit::host {

struct TokenUsage {
    std::int64_t prompt_tokens = 0;
    std::int64_t completion_tokens = 0;
    std::int64_t total_tokens = 0;
};

/// The counts in `counts` under each provider's own names (a missing or odd field counts 0).
TokenUsage token_usage_from(const boost::json::object& counts, std::string_view prompt, std::string_view completion,
                            std::string_view total);
/// {promptTokens, completionTokens, totalTokens}: how the stores and the page carry it.
boost::json::object usage_json(const TokenUsage& usage);
/// The same read back (anything else reads as zeros).
TokenUsage usage_from_json(const boost::json::value& json);

}  // namespace mcpkit::host
