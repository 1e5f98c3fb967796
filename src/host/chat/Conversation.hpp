#pragma once
// The seed's conversation orchestrator: a user's message becomes a turn — the LLM's streamed
// answer, the tool calls it asks for (each approved, executed through the coordinator, its
// result added to the history), then the LLM again, until it answers without calls. Everything
// it reports goes to ChatEvents; its tool calls run through the ToolRunner that hand and view
// calls share.

#include "host/HostLog.hpp"
#include "host/chat/ChatEvents.hpp"
#include "host/chat/ChatSession.hpp"
#include "host/chat/HostTools.hpp"
#include "host/chat/ToolRunner.hpp"
#include "host/coordinator/McpCoordinator.hpp"
#include "host/llm/LanguageModel.hpp"
#include "host/store/ChatStore.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace mcpkit::host {

struct ConversationSettings {
    std::string system_prompt =
        "You are a helpful assistant. You can use tools from MCP servers; call them when they help, "
        "and explain what you found. If a tool fails, say so and try another approach.";
    int max_steps = 10;
    int retries = 3;
    std::chrono::milliseconds retry_delay{1000};
    std::chrono::milliseconds approval_timeout{std::chrono::minutes(10)};
    std::size_t retain_newest = 6;
    int max_output_tokens = 4096;
};

/// What a user message carries besides its text.
struct UserInput {
    std::string text;
    struct Attachment {
        std::string server;
        std::string uri;
    };
    std::vector<Attachment> attachments;
    struct PromptUse {
        std::string server;
        std::string name;
        boost::json::object arguments;
    };
    std::optional<PromptUse> prompt;
    /// Files the user attached (pasted or dropped): pictures go to the model as pictures (or a line
    /// naming them, for a model that takes none); text files as text after the message.
    struct File {
        std::string name;
        std::string mime_type;
        std::string text;  ///< a text file's content
        std::string data;  ///< a picture's bytes, base64
    };
    std::vector<File> files;
    /// The user's message `edits` (its id) said this instead: it and what followed it are kept as
    /// an earlier version, and the model answers the new one.
    std::string edits;
    /// Ask again for the answer `regenerates` (an assistant message's id): it and what followed it
    /// are kept as an earlier version. No user message is added (the input has no text).
    std::string regenerates;
};

class Conversation {
public:
    Conversation(McpCoordinator& coordinator, LanguageModel* model, ChatStore& store, HostLog& log,
                 ConversationSettings settings, ChatEvents& events, ToolRunner& tools);

    /// Runs one turn to its end (finished, stopped or failed); never throws.
    boost::asio::awaitable<void> run_turn(std::shared_ptr<ChatSession> session, UserInput input);
    /// Brings back version `version` of the stretch starting at `message_id` (edits and answers
    /// asked again keep the earlier ones); throws std::invalid_argument when there is none.
    void show_version(ChatSession& session, const std::string& message_id, std::size_t version);
    /// Stops the session's turn: aborts the LLM stream, cancels running tools, drops questions.
    void stop(ChatSession& session);

    /// An answer to a server's sampling request, after the user approved it in `session`.
    boost::asio::awaitable<boost::json::object> sample(std::shared_ptr<ChatSession> session, std::string server,
                                                       boost::json::object params);
    /// An answer to a server's elicitation request, from the user of `session`.
    boost::asio::awaitable<boost::json::object> elicit(std::shared_ptr<ChatSession> session, std::string server,
                                                       boost::json::object params);

    LanguageModel* model() const { return model_; }

private:
    boost::asio::awaitable<std::string> user_content(ChatSession& session, const UserInput& input);
    /// The model's answer, streamed into `session.answer` (which a failure leaves holding what
    /// was shown).
    boost::asio::awaitable<ModelReply> generate(ChatSession& session);
    /// Gives the store a copy of the answer being written, at most once a second.
    void keep_unfinished(ChatSession& session);
    /// The answer is recorded (or dropped): the store's copy of it goes.
    void finish_answer(ChatSession& session);
    /// The tools this request offers: all, or (too many) search_tools and a chosen few.
    ToolList choose_tools(ChatSession& session);
    static std::int64_t declared_tokens(const std::vector<ToolDeclaration>& tools);
    /// search_tools and read_tool_result, answered here with a card like any call.
    void run_host_tool(ChatSession& session, const ToolCall& call);
    boost::asio::awaitable<void> run_tool_call(std::shared_ptr<ChatSession> session, const ToolCall& call);
    void record(ChatSession& session, ChatMessage message);
    /// An edit or an answer asked again: cuts the history where it starts (the versions go to the
    /// first message recorded next); false when `input` is neither.
    bool cut_for(ChatSession& session, const UserInput& input);
    /// A turn that recorded nothing after its cut (stopped at once) shows the stretch it cut again.
    void restore_cut(ChatSession& session);
    /// The history replaced, in the store and on the pages, from `index` on.
    void replaced_from(ChatSession& session, std::size_t index);
    void add_usage(ChatSession& session, const TokenUsage& usage);

    McpCoordinator& coordinator_;
    LanguageModel* model_;
    ChatStore& store_;
    HostLog& log_;
    ConversationSettings settings_;
    ChatEvents& events_;
    ToolRunner& tools_;
    ToolList all_tools_;
    std::int64_t all_tool_tokens_ = 0;
    ToolList counted_tools_;
    std::int64_t counted_tool_tokens_ = 0;
};


}  // namespace mcpkit::host
