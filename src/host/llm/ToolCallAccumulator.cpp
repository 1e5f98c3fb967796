#include "host/llm/ToolCallAccumulator.hpp"

#include "host/llm/ModelErrors.hpp"
#include "host/llm/SurrogateHalves.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

ToolCallAccumulator::Partial& ToolCallAccumulator::target(const json::object& delta) {
    std::optional<long long> index;
    if (auto* value = delta.if_contains("index"); value && value->is_number()) index = json_fields::integer(delta, "index");
    std::string id = json_fields::text(delta, "id");
    std::string name;
    if (auto* function = delta.if_contains("function"); function && function->is_object())
        name = json_fields::text(function->get_object(), "name");

    if (index) {
        // The last call under this index, unless the delta carries a different id (Ollama's
        // parallel calls all at index 0).
        for (auto it = calls_.rbegin(); it != calls_.rend(); ++it) {
            if (it->index != index) continue;
            if (!id.empty() && !it->id.empty() && id != it->id) break;
            return *it;
        }
        start_call(index);
        return calls_.back();
    }
    // No index: an id or a name begins a call, unless it repeats the last call's.
    bool starts = calls_.empty() || (!id.empty() && id != calls_.back().id) ||
                  (id.empty() && !name.empty() && !calls_.back().name.empty());
    if (starts) start_call(std::nullopt);
    return calls_.back();
}

void ToolCallAccumulator::start_call(std::optional<long long> index) {
    // Also what keeps target's search of the calls from growing without bound.
    if (calls_.size() >= max_tool_calls_per_answer) throw too_many_tool_calls_error(provider_);
    calls_.push_back({index, {}, {}, {}, {}});
}

void ToolCallAccumulator::add(const json::object& delta) {
    Partial& call = target(delta);
    if (std::string id = json_fields::text(delta, "id"); !id.empty()) call.id = id;
    // Assigned, so copied out of the event's scratch memory.
    if (auto* extra = delta.if_contains("extra_content"); extra && extra->is_object())
        call.provider_data["extra_content"] = *extra;
    if (auto* function = delta.if_contains("function"); function && function->is_object()) {
        const auto& object = function->get_object();
        if (std::string name = json_fields::text(object, "name"); !name.empty()) call.name = name;
        if (auto* arguments = object.if_contains("arguments")) {
            if (arguments->is_string()) call.arguments += arguments->get_string();
            // Some servers send the arguments as an object rather than a string.
            else if (arguments->is_object()) call.arguments += json::serialize(*arguments);
        }
    }
}

std::vector<ToolCall> ToolCallAccumulator::finish() {
    std::vector<ToolCall> calls;
    for (auto& partial : calls_) {
        ToolCall call;
        call.id = partial.id.empty() ? new_id("call") : partial.id;  // unique across turns, not call_1 each time
        call.name = partial.name;
        call.provider_data = std::move(partial.provider_data);
        join_surrogate_halves(partial.arguments);
        std::string_view text = partial.arguments;
        while (!text.empty() && (text.front() == ' ' || text.front() == '\n')) text.remove_prefix(1);
        if (!text.empty()) {
            boost::system::error_code ec;
            json::value parsed = json::parse(text, ec);
            if (ec) call.arguments_error = "the arguments are not valid JSON (" + ec.message() + "): " + std::string(text.substr(0, 200));
            else if (!parsed.is_object()) call.arguments_error = "the arguments must be a JSON object, not " + std::string(text.substr(0, 200));
            else call.arguments = std::move(parsed.get_object());
        }
        calls.push_back(std::move(call));
    }
    calls_.clear();
    return calls;
}

}  // namespace mcpkit::host
