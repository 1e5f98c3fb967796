#pragma once
// Prompts: templates a server offers, and the messages a get returns.

#include "mcp/Export.hpp"
#include "mcp/protocol/Content.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// One argument a prompt takes, as listed in prompts/list.
struct MCP_API PromptArgument {
    std::string name;  ///< The argument's name, the key in prompts/get's arguments.
    std::optional<std::string> title;  ///< A display name for people.
    std::optional<std::string> description;  ///< What to pass, for people and models.
    bool required = false;  ///< Whether prompts/get must supply it; sent only when true.
};

/// A prompt template a server offers in prompts/list.
struct MCP_API Prompt {
    std::string name;  ///< The name prompts/get asks for.
    std::optional<std::string> title;  ///< A display name for people.
    std::optional<std::string> description;  ///< What the prompt is for.
    std::vector<PromptArgument> arguments;  ///< The arguments it takes; omitted when empty.
    boost::json::array icons;  ///< Icon objects as sent; omitted when empty.
    boost::json::object meta;  ///< Sent as `_meta`; omitted when empty.

    /// The prompts/list entry; unset and empty fields are left out.
    boost::json::object to_json() const;
    /// Reads a prompts/list entry leniently: missing or mistyped fields stay empty, malformed
    /// arguments are skipped.
    static Prompt from_json(const boost::json::object& json);
};

/// One message of a prompt's result, said by the user or the assistant.
struct MCP_API PromptMessage {
    std::string role;  ///< "user" or "assistant"
    Content content;  ///< What the message says: text, an image, a resource, …
};

/// What prompts/get returns: the prompt's messages, ready to send to a model.
struct MCP_API GetPromptResult {
    std::optional<std::string> description;  ///< A description of this rendering of the prompt.
    std::vector<PromptMessage> messages;  ///< The messages, in order.
    /// The prompts/get result object.
    boost::json::object to_json() const;
    /// Reads a prompts/get result leniently: malformed messages are skipped, missing fields stay empty.
    static GetPromptResult from_json(const boost::json::object& json);
};

/// What completion/complete answers: at most 100 values, plus the total and whether more exist.
struct MCP_API Completion {
    std::vector<std::string> values;  ///< The suggested values; the spec allows at most 100.
    std::optional<std::int64_t> total;  ///< How many matches exist in all, when known.
    bool has_more = false;  ///< Whether more values exist than were sent.
    /// The whole completion/complete result, {"completion": {…}}.
    boost::json::object to_json() const;
    /// From a completion/complete result ({"completion": {…}}).
    static Completion from_json(const boost::json::object& json);
};

}  // namespace mcp
