#pragma once
// One conversation: its history, the pages (WebSocket connections) showing it, and the state of
// the turn in progress (its stop switch, the questions waiting for the user). Lives on the host's
// thread; outlives its connections so that a page reconnecting finds it. What the pages are sent
// is web/PageFrames' business: here they are only where frames go.

#include "host/chat/ChatEvents.hpp"
#include "host/chat/MessageVersions.hpp"
#include "host/chat/PendingAnswers.hpp"
#include "host/chat/StandingApprovals.hpp"
#include "host/chat/ViewContext.hpp"
#include "host/history/ChatMessage.hpp"
#include "host/history/TokenUsage.hpp"
#include "host/llm/LanguageModel.hpp"

#include <mcp/Cancellation.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/json/object.hpp>

#include <map>
#include <optional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mcpkit::host {

/// A page connected to a session (a WebSocket).
class SessionClient {
public:
    virtual ~SessionClient() = default;
    /// Queues one frame (shared: a broadcast serializes once).
    virtual void send(std::shared_ptr<const std::string> frame) = 0;
    /// Writes what is queued now rather than at the end of the tick (streamed text, where the
    /// latency shows).
    virtual void send_queued() {}
};

/// The answer being written, as far as it got: a page that opens meanwhile is sent it whole (not
/// from the next piece on), and the store keeps a copy every second, so that a host stopped
/// mid-answer still has it.
struct AnswerInProgress {
    std::string message_id;
    std::string model;  ///< the model asked (empty: the host's default)
    std::string text;
    std::string reasoning;
    std::int64_t started_at = 0;
    std::int64_t saved_at = 0;  ///< when the store last got a copy; 0: never
};

/// The tools a conversation offers its model when the servers have too many to offer whole
/// (chat/HostTools): those it found with search_tools, most recent first, and the list last
/// offered, kept while it stays the same (providers keep a list's serialized form).
struct ToolChoice {
    std::vector<std::string> found;
    ToolList built_from;               ///< the servers' list it was chosen from
    std::vector<std::string> wanted;   ///< and what was wanted then
    bool with_reader = false;
    ToolList offered;
};

class ChatSession {
public:
    ChatSession(boost::asio::any_io_executor executor, std::string id);

    const std::string& id() const { return id_; }

    /// Sends a frame to every page showing this session (one text shared by every page).
    void broadcast(const std::shared_ptr<const std::string>& text);
    /// Every page writes what it has queued now.
    void send_queued();
    void attach(const std::shared_ptr<SessionClient>& client);
    void detach(const SessionClient* client);
    /// Every page leaves it (the conversation was deleted).
    void detach_all() { clients_.clear(); }
    std::size_t clients() const { return clients_.size(); }


    std::vector<ChatMessage> history;
    TokenUsage usage;
    /// The model this conversation talks to, when the user picked one; empty: the host's default.
    std::string model;
    std::int64_t created_at = 0;
    std::int64_t last_active = 0;
    /// Tools the user allowed for the rest of the session ("always"), as they were defined then.
    StandingApprovals always_allowed;
    PendingAnswers answers;
    /// The questions still open, by id (chat/UserQuestions), for a page that attaches meanwhile.
    std::map<std::string, Question> questions;
    /// The views' latest contexts, one per view, oldest first: they go to the model with the next
    /// user message (the spec's "only the last update" per view), then are cleared.
    std::vector<ViewContext> view_contexts;

    // The turn in progress.
    bool turn_running = false;
    std::string turn_id;
    /// Only while an answer is being written (an idle session holds a null pointer: 10,000 of
    /// them would otherwise carry 1.5 MB of empty strings).
    std::unique_ptr<AnswerInProgress> answer;
    /// Made when first needed: an idle session holds a null pointer.
    std::unique_ptr<ToolChoice> tool_choice;
    /// An edit or an answer asked again cut the history: the versions the first message recorded
    /// after the cut carries (chat/MessageVersions), and where the cut stretch stood among them.
    struct CarriedVersions {
        StretchVersions versions;
        std::size_t at = 0;
    };
    std::unique_ptr<CarriedVersions> carried_versions;
    /// A new stop switch for a new turn (made only then: an idle page's session holds none).
    void arm_stop() { stop_.emplace(); }
    void request_stop(const std::string& reason) {
        if (stop_) stop_->cancel(reason);
    }
    bool stopped() const { return stop_ && stop_->cancelled(); }
    mcp::CancellationToken stop_token() const { return stop_ ? stop_->token() : mcp::CancellationToken(); }
    /// Servers with a call of this session running (a server's own requests are routed here).
    std::map<std::string, int> servers_in_use;
    /// Whether the store has this session yet (written at its first message, not at its first page),
    /// when its activity was last written there, and the store's revision of it that this copy
    /// holds (another instance sharing the store may have moved on since).
    bool in_store = false;
    /// The user deleted it: a turn still ending writes nothing more to the store.
    bool removed = false;
    std::int64_t stored_active = 0;
    std::int64_t stored_revision = 0;

private:
    std::string id_;
    std::vector<std::weak_ptr<SessionClient>> clients_;
    std::optional<mcp::CancellationSource> stop_;
};

}  // namespace mcpkit::host
