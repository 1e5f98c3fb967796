#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The MCP side of the Streamable HTTP endpoint, on the Server's thread: it owns the sessions
// (2025 era) and the stateless exchanges (2026-07-28), and turns each POST, GET and DELETE that an
// HTTP connection hands over into work for a Server session, answered through a ResponseStream.

#include "mcp/server/Server.hpp"
#include "mcp/transport/StreamableHttpServer.hpp"
#include "transport/http/HttpSessionTransport.hpp"
#include "transport/http/RequestRules.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <unordered_map>
#include <unordered_set>

namespace mcp::http {

/// One request, as the HTTP connection hands it over (already checked and decoded).
struct EndpointRequest {
    enum class Verb { post, get, remove };
    Verb verb = Verb::post;
    bool modern = false;          ///< 2026-07-28, stateless
    std::string session_id;       ///< Mcp-Session-Id, if sent
    std::string version_header;   ///< MCP-Protocol-Version, if sent
    std::string last_event_id;    ///< Last-Event-ID, if sent
    bool accepts_sse = true;
    jsonrpc::Decoded messages;    ///< POST body, decoded
    std::string body;             ///< POST body as sent (session era only)
    std::vector<ParameterHeader> parameter_headers;  ///< Mcp-Param-* (2026 tools/call)
    std::shared_ptr<ResponseStream> http;
    /// Who sent it, as the authorizer found (null without one).
    std::shared_ptr<const jsonrpc::MessageOrigin> origin;
};

class McpEndpoint : public std::enable_shared_from_this<McpEndpoint> {
public:
    McpEndpoint(Server& server, boost::asio::io_context& io, const StreamableHttpServerOptions& options);

    void start();
    void handle(EndpointRequest& request);
    /// Ends every session and exchange, answering requests still in flight with an error;
    /// afterwards every request gets 503.
    void shutdown();
    /// Some request still waits for its answer (open GET streams do not count).
    bool requests_in_flight() const;
    /// Requests still being answered.
    bool busy() const;

private:
    struct LiveSession {
        std::shared_ptr<HttpSessionTransport> transport;
        std::string version;  ///< what initialize asked for
        std::chrono::steady_clock::time_point last_seen;
        std::size_t setup_applied = 0;  ///< setup messages from the store this copy has seen
        int replayed = 0;               ///< ids used for replayed requests
        /// Whose it is (behind an authorizer): a token of someone else cannot use it.
        std::string principal;
    };

    void post_stateful(EndpointRequest& request);
    void post_stateless(EndpointRequest& request);
    void get(EndpointRequest& request);
    void remove(EndpointRequest& request);
    void dispatch(EndpointRequest& request);
    /// Whether the request's token holds the scopes its messages' items need; if not, it was
    /// answered with 403.
    bool has_required_scopes(EndpointRequest& request);
    LiveSession& start_session(const std::string& id);
    /// The session, marked used now here and in the store: the copy here (brought up to date with
    /// setup messages other instances added) or one rebuilt from the store. Null if it does not exist.
    LiveSession* find_session(const std::string& id);
    /// find_session for this request's sender: another principal's session does not exist for it.
    LiveSession* find_session_for(const EndpointRequest& request);
    /// Replays into this copy the setup messages it has not seen yet.
    void catch_up(const std::string& id, LiveSession& live, std::size_t setup_count);
    void end_session(const std::string& id);
    void schedule_heartbeat();
    void watch_client(const std::shared_ptr<HttpSessionTransport>& transport,
                      const std::shared_ptr<ResponseStream>& http);
    void schedule_sweep();
    bool priming_for(const EndpointRequest& request, std::string_view session_version) const;

    Server& server_;
    boost::asio::io_context& io_;
    const StreamableHttpServerOptions& options_;
    std::shared_ptr<SessionStore> store_;
    std::unordered_map<std::string, LiveSession> sessions_;
    std::unordered_set<std::shared_ptr<HttpSessionTransport>> exchanges_;
    std::string instance_;  ///< this process among those sharing the store
    boost::asio::steady_timer sweep_timer_;
    boost::asio::steady_timer heartbeat_timer_;
    bool shut_down_ = false;
};

}  // namespace mcp::http
