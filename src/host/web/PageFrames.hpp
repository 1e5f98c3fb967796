#pragma once
// Every frame the host sends to its pages, in one place: read next to docs/host-websocket.md
// ("Server → page"), it shows each frame's type and payload. As ChatEvents it sends what a
// conversation reports to every page of the session; the static builders make the frames for one
// page (greeting, answers to a page's request, errors) and for every session (servers, sign-in).
//
// Frames are written straight as JSON text, shared by every page that gets them: building each
// as a JSON object only to serialize it (copying a call's arguments and result into it on the
// way) cost more than the rest of the frame's way out.

#include "host/chat/ChatEvents.hpp"
#include "host/chat/ToolRunner.hpp"
#include "host/history/ChatMessage.hpp"
#include "host/history/TokenUsage.hpp"
#include "host/llm/LanguageModel.hpp"
#include "host/store/ChatStore.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace mcpkit::host {

/// One frame, serialized once for every page that gets it.
using Frame = std::shared_ptr<const std::string>;

class PageFrames final : public ChatEvents {
public:
    // What a conversation reports, to every page of its session.
    void turn(ChatSession& session, TurnState state, const std::string& turn_id, const TurnEnd& end) override;
    void history_changed(ChatSession& session) override;
    void user_message(ChatSession& session, const std::string& turn_id, const ChatMessage& message) override;
    void text(ChatSession& session, const std::string& turn_id, const std::string& message_id,
              std::string_view piece) override;
    void reasoning(ChatSession& session, const std::string& turn_id, const std::string& message_id,
                   std::string_view piece) override;
    void retrying(ChatSession& session, const std::string& turn_id, const RetryNotice& notice) override;
    void tool_started(ChatSession& session, const ToolCard& card, const boost::json::object& arguments) override;
    void tool_progress(ChatSession& session, const std::string& call_id, double progress, std::optional<double> total,
                       const std::string& message) override;
    void tool_task(ChatSession& session, const std::string& call_id, const std::string& task_id,
                   const std::string& status, const std::string& message) override;
    void tool_finished(ChatSession& session, const ToolCard& card, const ToolEnding& ending) override;
    void question_opened(ChatSession& session, const Question& question) override;
    void question_closed(ChatSession& session, const std::string& id, std::string_view reason) override;
    void usage(ChatSession& session, const TokenUsage& total) override;
    void flush(ChatSession& session) override;

    // A page that just connected, or opened another conversation.
    static Frame connection(bool resumed, const std::string& session_id);
    /// The page now shows `session_id` (it asked to open it, or a new one).
    static Frame opened(const std::string& session_id);
    /// `messages`: the history as ChatMessage JSON (views the host no longer serves left out).
    static Frame history(boost::json::array messages);
    /// A message as a page shows it: its versions counted ("versions": how many, "version": which
    /// one), not sent whole.
    static boost::json::object message_for_page(const ChatMessage& message);
    static Frame usage_frame(const TokenUsage& total);
    static Frame turn_frame(TurnState state, const std::string& turn_id, const TurnEnd& end);
    /// The model the session talks to (`model`), and the host's default.
    static Frame model(const std::string& model, const std::string& default_model);
    static Frame question(const Question& question);
    /// The answer being written, whole so far, for a page that opens during it.
    static Frame text_frame(const std::string& turn_id, const std::string& message_id, std::string_view text);
    static Frame reasoning_frame(const std::string& turn_id, const std::string& message_id, std::string_view text);

    // Every session.
    /// `servers`: McpCoordinator::describe_servers(); `model` null: none configured, `llm_help` says how.
    static Frame servers(const boost::json::array& servers, const LanguageModel* model, const std::string& llm_help);
    static Frame auth_required(const std::string& server, const std::string& url);
    /// A conversation was renamed, or deleted (every page's list follows).
    static Frame conversation_renamed(const std::string& session_id, const std::string& title);
    static Frame conversation_deleted(const std::string& session_id);

    // Answers to one page's request.
    static Frame tool_result(const std::string& request_id, const std::string& tool, const ToolRunResult& run);
    static Frame prompt(const std::string& request_id, const boost::json::array& messages);
    static Frame resource(const std::string& request_id, const std::string& uri, const boost::json::array& contents);
    /// An MCP App view's request answered: `result`, or `error` ({code, message}) when not empty.
    static Frame app_response(const std::string& request_id, const boost::json::value& result,
                              const boost::json::object& error);
    /// The provider's models for the picker, or why there is no list (`error` not empty).
    static Frame models(const std::string& request_id, const std::vector<ModelChoice>& models, const std::string& error);
    /// The standing approvals of the page's conversation and of the host.
    static Frame approvals(const std::string& request_id, const std::vector<ListedApproval>& approvals);
    /// A page of the list of conversations.
    static Frame conversations(const std::string& request_id, const ConversationPage& page);
    static Frame error(const std::string& message, const std::string& request_id = {});
};

}  // namespace mcpkit::host
