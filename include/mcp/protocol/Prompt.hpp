#pragma once
// Prompts: templates a server offers, and the messages a get returns.

#include "mcp/protocol/Content.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcp {

struct PromptArgument {
    std::string name;
    std::optional<std::string> title;
    std::optional<std::string> description;
    bool required = false;
};

struct Prompt {
    std::string name;
    std::optional<std::string> title;
    std::optional<std::string> description;
    std::vector<PromptArgument> arguments;
    boost::json::array icons;
    boost::json::object meta;

    boost::json::object to_json() const;
    static Prompt from_json(const boost::json::object& json);
};

struct PromptMessage {
    std::string role;  ///< "user" or "assistant"
    Content content;
};

struct GetPromptResult {
    std::optional<std::string> description;
    std::vector<PromptMessage> messages;
    boost::json::object to_json() const;
    static GetPromptResult from_json(const boost::json::object& json);
};

/// What completion/complete answers: at most 100 values, plus the total and whether more exist.
struct Completion {
    std::vector<std::string> values;
    std::optional<std::int64_t> total;
    bool has_more = false;
    boost::json::object to_json() const;
    /// From a completion/complete result ({"completion": {…}}).
    static Completion from_json(const boost::json::object& json);
};

}  // namespace mcp
