#pragma once
// One MCP server from mcp.json, kept connected: started (a child process or a Streamable HTTP
// session) with a start-up timeout, its tools, prompts and resources listed and followed
// (list_changed), its stderr's last lines kept for diagnostics, and restarted with backoff when it
// dies. Runs on the host's single I/O thread.

#include "host/config/McpConfig.hpp"
#include "host/coordinator/SignInBroker.hpp"

#include <mcp/client/Client.hpp>
#include <mcp/transport/Transport.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/object.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mcpkit::host {

enum class ServerState { starting, ready, failed, stopped };
std::string_view server_state_name(ServerState state);

/// What the coordinator hands each server for the server's own requests and for telling it
/// about changes.
struct ServerCallbacks {
    /// sampling/createMessage and elicitation/create from the server named first, made during a
    /// call for the session `session_id` (empty: the call is not known).
    using ServerRequest = std::function<boost::asio::awaitable<boost::json::object>(
        const std::string& server, const boost::json::object& params, const std::string& session_id)>;
    ServerRequest on_sampling;
    ServerRequest on_elicitation;
    /// Its state or lists changed.
    std::function<void()> on_change;
    /// Progress and log notifications, by server.
    std::function<void(const std::string& server, std::string_view method, const boost::json::value& params)> on_notification;
    std::function<void(std::string_view)> log;
    std::vector<mcp::Root> roots;
    /// OAuth for remote servers that answer 401 (none: such a server fails with the refusal).
    std::shared_ptr<SignInBroker> sign_in;
    std::shared_ptr<mcp::auth::TokenStore> tokens;
};

class ServerConnection : public std::enable_shared_from_this<ServerConnection> {
public:
    ServerConnection(boost::asio::any_io_executor executor, ServerEntry entry, ServerCallbacks callbacks);
    ~ServerConnection();

    /// Connects and lists; never throws (a failure is the state, with `error()` saying why).
    boost::asio::awaitable<void> start();
    /// Closes the connection; no restart follows.
    boost::asio::awaitable<void> stop();
    /// Starts again now if failed (a call needs it), waiting for the start to end.
    boost::asio::awaitable<void> ensure_started();

    const ServerEntry& entry() const { return entry_; }
    const std::string& name() const { return entry_.name; }
    ServerState state() const { return state_; }
    const std::string& error() const { return error_; }
    const std::deque<std::string>& stderr_tail() const { return stderr_tail_; }
    const std::vector<mcp::Tool>& tools() const { return tools_; }
    const std::vector<mcp::Prompt>& prompts() const { return prompts_; }
    const std::vector<mcp::Resource>& resources() const { return resources_; }
    /// The connected client (state ready), or null. Shared: a caller keeps it alive across its
    /// awaits even if the connection is replaced meanwhile (its requests then fail, cleanly).
    std::shared_ptr<mcp::Client> client() { return state_ == ServerState::ready ? client_ : nullptr; }

    /// The failure of a call saw the connection die: mark it and schedule a restart.
    void connection_lost(const std::string& why);
    /// The same, first giving a dying child a moment to exit so that its last stderr lines are in
    /// the error; returns the error.
    boost::asio::awaitable<std::string> lost(std::string why);

private:
    boost::asio::awaitable<void> connect_once();
    boost::asio::awaitable<void> refresh_lists();
    /// A list_changed notification: refreshes, or, while a refresh runs, has it run once more
    /// after (a server sending a flood of them costs one refresh at a time, not one each).
    void schedule_refresh();
    boost::asio::awaitable<void> refresh_until_settled();
    void schedule_restart();
    void set_state(ServerState state, std::string error = {});
    std::shared_ptr<mcp::Transport> make_transport();
    std::string with_stderr(std::string message) const;

    boost::asio::any_io_executor executor_;
    ServerEntry entry_;
    ServerCallbacks callbacks_;
    ServerState state_ = ServerState::stopped;
    std::string error_;
    std::deque<std::string> stderr_tail_;
    std::shared_ptr<mcp::Client> client_;
    std::shared_ptr<mcp::Transport> transport_;
    std::vector<mcp::Tool> tools_;
    std::vector<mcp::Prompt> prompts_;
    std::vector<mcp::Resource> resources_;
    boost::asio::steady_timer restart_timer_;
    /// The start-up budget of the connection being made; stopped while the person signs in.
    std::shared_ptr<boost::asio::steady_timer> start_deadline_;
    int restarts_ = 0;
    bool stopping_ = false;
    bool starting_ = false;
    bool refreshing_ = false;      ///< a refresh_until_settled runs
    bool refresh_again_ = false;   ///< a list changed while it ran
    std::uint64_t generation_ = 0;  ///< which connection callbacks belong to
    std::vector<std::shared_ptr<boost::asio::steady_timer>> start_waiters_;
};

}  // namespace mcpkit::host
