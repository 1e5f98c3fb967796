#include "host/history/TokenUsage.hpp"

#include <mcp/JsonFields.hpp>

#include <algorithm>

namespace mcpkit::host {
namespace json = boost::json;

TokenUsage token_usage_from(const json::object& counts, std::string_view prompt, std::string_view completion,
                            std::string_view total) {
    // A provider's count is a number of some form; a fraction or 1e300 must not throw, and the
    // session's running sums must not overflow: counts stay within [0, 10^15].
    auto count = [&](std::string_view key) {
        return std::clamp<std::int64_t>(mcp::json_fields::integer(counts, key), 0, 1'000'000'000'000'000);
    };
    return {count(prompt), count(completion), count(total)};
}

json::object usage_json(const TokenUsage& usage) {
    return {{"promptTokens", usage.prompt_tokens},
            {"completionTokens", usage.completion_tokens},
            {"totalTokens", usage.total_tokens}};
}

TokenUsage usage_from_json(const json::value& json) {
    if (!json.is_object()) return {};
    return token_usage_from(json.get_object(), "promptTokens", "completionTokens", "totalTokens");
}

}  // namespace mcpkit::host
