#include "host/history/TokenUsage.hpp"

namespace mcpkit::host {
namespace json = boost::json;

TokenUsage token_usage_from(const json::object& counts, std::string_view prompt, std::string_view completion,
                            std::string_view total) {
    auto count = [&](std::string_view key) -> std::int64_t {
        auto* value = counts.if_contains(key);
        return value && value->is_number() ? value->to_number<std::int64_t>() : 0;
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
