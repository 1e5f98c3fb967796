#pragma once
// The page's side of docs/host-websocket.md: each frame from a page checked (JSON object, known
// type, fields of the right types; anything else answered with an `error` frame naming the field,
// the connection kept) and carried out on its session. The frames it answers with are
// PageFrames'; tool calls by hand and from views run through the conversation's ToolRunner.

#include "host/chat/Conversation.hpp"
#include "host/chat/SessionManager.hpp"
#include "host/chat/ToolRunner.hpp"
#include "host/coordinator/McpCoordinator.hpp"
#include "host/web/PageFrames.hpp"
#include "host/web/WebSocketClient.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <functional>
#include <memory>
#include <string>

namespace mcpkit::host {

class PageProtocol : public WebSocketHandler {
public:
    PageProtocol(boost::asio::any_io_executor executor, SessionManager& sessions, Conversation& conversation,
                 McpCoordinator& coordinator, ToolRunner& tools, PageFrames& frames, HostLog& log);

    /// A page connected and asked for `session_id`: attaches it and greets it (connection,
    /// history, servers, the questions still open).
    void open(const std::shared_ptr<WebSocketClient>& client, const std::string& session_id);
    void opened(const std::shared_ptr<WebSocketClient>& client) override;
    void received(const std::shared_ptr<WebSocketClient>& client, std::string_view text) override;
    void closed(const std::shared_ptr<WebSocketClient>& client) override;
    /// The `servers` frame to every page, after a change.
    void broadcast_servers();

    /// Text for the page when no LLM is configured.
    std::string llm_help;
    /// Views of MCP Apps for calls made by hand, and the target of app_request (none: no apps).
    McpApps* apps = nullptr;

private:
    void handle(const std::shared_ptr<WebSocketClient>& client, std::string_view text);
    void dispatch(const std::shared_ptr<WebSocketClient>& client, const std::shared_ptr<ChatSession>& session,
                  const std::string& type, const boost::json::object& payload);
    void answer_question(const std::shared_ptr<WebSocketClient>& client, ChatSession& session,
                         const std::string& id_field, const boost::json::object& payload);
    /// The history, the questions open, the answer being written: what a page showing `session`
    /// needs (`servers` too when not null).
    void greet(WebSocketClient& page, ChatSession& session, const Frame& servers);

    // The list of conversations (web/PageConversations.cpp).
    /// Moves the page to the conversation `id` (empty: a new one); `from` is null when the
    /// page's conversation was deleted.
    void open_conversation(const std::shared_ptr<WebSocketClient>& client, const std::shared_ptr<ChatSession>& from,
                           const std::string& id);
    void list_conversations(WebSocketClient& client, const std::string& request_id, const std::string& search,
                            const std::string& after);
    void rename_conversation(const std::string& id, const std::string& title);
    void delete_conversation(const std::string& id);
    /// A frame to every page of every conversation.
    void broadcast_all(const Frame& frame);

    boost::asio::awaitable<void> call_tool(std::shared_ptr<WebSocketClient> client, std::shared_ptr<ChatSession> session,
                                           boost::json::object payload);
    boost::asio::awaitable<void> get_prompt(std::shared_ptr<WebSocketClient> client, boost::json::object payload);
    boost::asio::awaitable<void> read_resource(std::shared_ptr<WebSocketClient> client, boost::json::object payload);
    boost::asio::awaitable<void> list_models(std::shared_ptr<WebSocketClient> client, boost::json::object payload);
    /// ui/update-model-context from a view: kept in the session for the next user message.
    void update_view_context(WebSocketClient& client, ChatSession& session, const boost::json::object& payload);
    boost::asio::awaitable<void> app_request(std::shared_ptr<WebSocketClient> client, std::shared_ptr<ChatSession> session,
                                             boost::json::object payload);

    Frame servers_frame();
    /// The last `servers` frame, serialized once for every page that opens until the next change.
    Frame servers_text_;
    boost::asio::any_io_executor executor_;
    SessionManager& sessions_;
    Conversation& conversation_;
    McpCoordinator& coordinator_;
    ToolRunner& tools_;
    PageFrames& frames_;
    HostLog& log_;
};

}  // namespace mcpkit::host
