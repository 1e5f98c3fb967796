#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The client's side of one connection: answers the server's requests through the user's
// handlers, routes progress to the call that asked for it, and holds what the handshake learned.

#include "mcp/client/Client.hpp"
#include "mcp/jsonrpc/Connection.hpp"

#include <unordered_map>

namespace mcp::detail {

struct ProgressListener {
    std::function<void(double, std::optional<double>, const std::string&)> callback;
    jsonrpc::RequestId request_id;  ///< the current round's id, for restarting its timeout
    bool reset_timeout = true;
};

class ClientSession : public jsonrpc::Dispatcher {
public:
    explicit ClientSession(ClientOptions options) : options(std::move(options)) {}

    boost::asio::awaitable<jsonrpc::Reply> handle_request(jsonrpc::InboundRequest& request) override;
    void handle_notification(jsonrpc::Notification& notification) override;

    boost::json::object capabilities() const;
    /// Answers one request of the server (or input request of an input_required result) with the
    /// local handlers.
    boost::asio::awaitable<boost::json::object> answer(std::string_view method, const boost::json::object& params,
                                                       const ServerRequestContext& context = {});

    ClientOptions options;
    std::shared_ptr<Transport> transport;
    std::shared_ptr<jsonrpc::Connection> connection;
    std::string protocol_version;
    bool stateless = false;
    bool connected = false;
    boost::json::object server_capabilities;
    Implementation server_info;
    std::optional<std::string> instructions;
    std::unordered_map<std::int64_t, ProgressListener> progress_listeners;
    /// 2025-11-25: each tool's execution.taskSupport, from list_tools.
    std::unordered_map<std::string, std::string> tool_task_support;
    bool tools_listed = false;
    /// 2025-11-25: the server takes task-augmented tools/call.
    bool server_does_task_calls() const;
    std::int64_t next_progress_token = 1;
    /// The callers (RequestOptions::caller) of our requests in flight, by their JSON-RPC id: a
    /// server's request that arrives on behalf of one of them is answered in that caller's name.
    std::unordered_map<jsonrpc::RequestId, const std::any*> callers;

private:
    // The method table (ClientSession.cpp): what a server may ask, each answered by one handler.
    struct Method;
    static const Method* find_method(std::string_view name);
    boost::asio::awaitable<boost::json::object> answer_sampling(const boost::json::object& params,
                                                                const ServerRequestContext& context);
    boost::asio::awaitable<boost::json::object> answer_elicitation(const boost::json::object& params,
                                                                   const ServerRequestContext& context);
    boost::asio::awaitable<boost::json::object> answer_roots(const boost::json::object& params,
                                                             const ServerRequestContext& context);
    boost::asio::awaitable<boost::json::object> answer_ping(const boost::json::object& params,
                                                            const ServerRequestContext& context);
};

}  // namespace mcp::detail
