#pragma once
// The host's own tools, offered to the model beside the servers' (their names have no "__", so
// no server's qualified name can be one of them), and what they answer:
// - search_tools, when the servers' tools are too many to offer whole (more than 64, or more than
//   a tenth of the context window, as VS Code and Claude Code learned): the model gets it, the
//   tools used recently and the ones it found, and what it finds is offered from its next step;
// - read_tool_result, when a result was too long to give whole (over 64 KB): the model got its
//   head and tail with a note, and reads any part of it by the call's id.

#include "host/history/ChatMessage.hpp"
#include "host/llm/LanguageModel.hpp"

#include <boost/json/object.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::host {

inline constexpr std::string_view search_tools_name = "search_tools";
inline constexpr std::string_view read_tool_result_name = "read_tool_result";
/// More tools than this, and the model gets search_tools instead of them all.
inline constexpr std::size_t max_offered_tools = 64;
/// A result longer than this reaches the model as a preview.
inline constexpr std::size_t long_result_bytes = 64 * 1024;
/// The most read_tool_result gives at once.
inline constexpr std::size_t max_read_bytes = 32 * 1024;

bool is_host_tool(std::string_view name);

/// What the model reads of a result: whole up to long_result_bytes; else its head and tail with
/// a note saying how much was left out and how to read it (`id`: the call's), and `cut` set.
std::string text_for_model(std::string whole, std::string_view id, bool& cut);

/// Which tools one request offers. `all`: the servers' tools; `too_many`: offer search_tools and
/// `wanted` (qualified names, most wanted first) instead of all; `with_reader`: a result was cut.
std::vector<ToolDeclaration> offered_tools(const std::vector<ToolDeclaration>& all, bool too_many,
                                           const std::vector<std::string>& wanted, bool with_reader);

/// The tools the conversation called, most recent first, each once.
std::vector<std::string> recently_used_tools(const std::vector<ChatMessage>& history);

struct HostToolAnswer {
    std::string text;
    bool is_error = false;
    std::vector<std::string> found;  ///< search_tools: the qualified names it found, best first
};

/// search_tools {query}: the tools whose names and descriptions best match the query's words.
HostToolAnswer search_tools(const std::vector<ToolDeclaration>& tools, const boost::json::object& arguments);
/// read_tool_result {id, offset?, length?}: a part of a result in the conversation's history.
HostToolAnswer read_tool_result(const std::vector<ChatMessage>& history, const boost::json::object& arguments);

}  // namespace mcpkit::host
