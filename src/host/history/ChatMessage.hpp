#pragma once
// The conversation as the host keeps it: one history per session, independent of the LLM
// provider (each adapter translates it to its own wire format) and stored as JSON.

#include "host/history/Clock.hpp"
#include "host/history/Ids.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace mcpkit::host {

struct ToolCall {
    std::string id;
    std::string name;  ///< the qualified name the model used (server__tool)
    boost::json::object arguments;
    /// Why the model's arguments could not be read as a JSON object, or empty.
    std::string arguments_error;
    /// What a provider needs back verbatim on the next request (Gemini's thoughtSignature).
    boost::json::object provider_data;
};

enum class Role { user, assistant, tool };

/// A picture a message shows the model: one the user attached, or one a tool's result holds.
struct MessageImage {
    std::string mime_type;
    std::string data;  ///< base64
    std::string name;  ///< the file's name, when the user attached it
};

struct ChatMessage {
    std::string id;
    Role role = Role::user;
    std::string content;
    /// user: what MCP App views asked the model to know (ui/update-model-context), sent with this
    /// message but kept apart from what the person wrote.
    std::string context;
    std::vector<ToolCall> tool_calls;  ///< assistant
    std::vector<MessageImage> images;  ///< user: the pictures attached
    std::string tool_call_id;          ///< tool: the call it answers
    std::string tool_name;             ///< tool
    boost::json::value data;           ///< tool: the MCP CallToolResult as JSON
    bool is_error = false;             ///< tool: the call failed; assistant: the answer failed
    bool refused = false;              ///< tool: not run (the user declined it, or the host refused it)
    /// tool: `content` is a preview of a longer result (its head and tail); the whole is in `data`,
    /// and the model reads the rest with the host's read_tool_result.
    bool cut = false;
    boost::json::value app;            ///< tool: the MCP App view shown with the result ({url, …}), or null
    std::int64_t created_at = 0;       ///< ms since the epoch
    /// assistant: the model that wrote it, when the conversation picked one other than the default.
    std::string model;
    /// assistant: the model's reasoning, shown folded and kept out of the answer.
    std::string reasoning;
    /// assistant: why the answer ended before the model meant it to, in plain words ("The model
    /// stopped: output limit reached."), or why it failed (with is_error); empty when it ended well.
    std::string ending;
    /// assistant: the technical side of `ending` (the provider's status and message), shown folded.
    std::string ending_details;
    /// assistant: what the provider needs back verbatim with this message (DeepSeek's
    /// reasoning_content, Anthropic's signed thinking blocks); never shown.
    boost::json::object provider_data;
    /// The first message of a stretch the user replaced — an edited message and what followed
    /// it, or an answer asked again and what followed it: the stretch's other versions, each whole
    /// (their first messages carry no versions), and where this one stands among them all.
    std::vector<std::vector<ChatMessage>> other_versions;
    std::size_t version = 0;

    /// What the model reads of a user message: its content, then its context.
    std::string text_for_model() const { return context.empty() ? content : content + "\n\n" + context; }

    boost::json::object to_json() const;
    /// Throws std::invalid_argument naming the field when `json` is not a stored message.
    static ChatMessage from_json(const boost::json::object& json);
};

std::string_view role_name(Role role);

/// `content` in a Markdown fence that it cannot close (longer than any run of backticks in it).
std::string fenced_block(std::string_view content, std::string_view language = {});

/// The pictures a message shows the model: a user's attached ones, or a tool result's image content.
std::vector<MessageImage> images_for_model(const ChatMessage& message);
/// What a model that takes no pictures reads instead of one.
std::string image_note(const MessageImage& image);

/// A conversation's title from its first user message: its first words, on one line, cut between
/// characters to at most about 80 bytes with "…"; empty when the message has no text.
std::string conversation_title(const ChatMessage& first_user_message);

/// What a tool's result says, as text for a model: its text content, else its structured content
/// as JSON, else a description of the other content (an image, a resource).
std::string tool_result_text(const boost::json::value& result);

}  // namespace mcpkit::host
