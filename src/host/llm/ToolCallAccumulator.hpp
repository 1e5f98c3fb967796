#pragma once
// Assembles the tool calls of an OpenAI-style stream from their deltas, tolerating what real
// backends send (shared/reference/llm-and-hosts.md §2):
// - the usual shape: the first delta of a call has index, id and name, later ones argument
//   fragments under the same index;
// - no `index` at all (old Ollama, Gemini's compatibility layer): a delta with an id or a name
//   starts a call, one without continues the last;
// - `index` 0 for every parallel call (Ollama): a new id under an index that already has one
//   starts a new call;
// - the whole call in one delta (Ollama), or no id (old llama.cpp): ids are made up.
// Gemini 3 through its OpenAI-compatible endpoint adds `extra_content` (the thought signature),
// which goes back with the call. Arguments are parsed once at the end (a character split between
// two fragments' escapes joined first); text that is not a JSON object becomes the call's
// arguments_error, for the model to read back, instead of an exception.

#include "host/history/ChatMessage.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcpkit::host {

class ToolCallAccumulator {
public:
    /// `provider` names the sender in errors ("openai", or another OpenAI-compatible one).
    explicit ToolCallAccumulator(std::string provider = "openai") : provider_(std::move(provider)) {}
    /// One element of `delta.tool_calls`. Past max_tool_calls_per_answer calls, throws the ModelError.
    void add(const boost::json::object& delta);
    bool empty() const { return calls_.empty(); }
    /// The calls in the order they started.
    std::vector<ToolCall> finish();

private:
    struct Partial {
        std::optional<long long> index;
        std::string id;
        std::string name;
        std::string arguments;
        boost::json::object provider_data;
    };
    Partial& target(const boost::json::object& delta);
    void start_call(std::optional<long long> index);
    std::string provider_;
    std::vector<Partial> calls_;
};

}  // namespace mcpkit::host
