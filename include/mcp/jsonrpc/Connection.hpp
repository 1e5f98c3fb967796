#pragma once
// The JSON-RPC 2.0 engine for one conversation over a MessageChannel: it reads frames, answers the
// peer's requests through a Dispatcher, correlates responses to our own requests, and applies
// timeouts and cancellation. It knows nothing of MCP.
//
// Threading: a Connection lives on its channel's executor. `call` and `run` are coroutines on
// that executor; `notify`, `reply_later`-style sends and cancellation may come from any thread
// and are posted there.

#include "mcp/Export.hpp"
#include "mcp/Cancellation.hpp"
#include "mcp/jsonrpc/Codec.hpp"
#include "mcp/jsonrpc/Message.hpp"
#include "mcp/jsonrpc/MessageChannel.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <unordered_map>

namespace mcp::jsonrpc {

/// The result or the error that answers a request.
struct MCP_API Reply {
    boost::json::value result;  ///< The result on success; unused when `error` or `result_text` is set.
    std::optional<ErrorObject> error;  ///< Set to answer with an error instead of a result.
    /// When set, the result's JSON text, written as is instead of `result` (hot paths build it
    /// directly and skip the intermediate JSON tree).
    std::string result_text;

    /// A successful reply carrying `result`.
    static Reply success(boost::json::value result) { return Reply{std::move(result), std::nullopt, {}}; }
    /// A successful reply whose result is already serialized JSON text, sent as is.
    static Reply success_text(std::string json_text) { return Reply{nullptr, std::nullopt, std::move(json_text)}; }
    /// An error reply with this code, message and optional data.
    static Reply failure(int code, std::string message, boost::json::value data = nullptr) {
        return Reply{nullptr, ErrorObject{code, std::move(message), std::move(data)}, {}};
    }
};

/// A request from the peer, as handed to the Dispatcher.
struct MCP_API InboundRequest {
    RequestId id;  ///< The id the peer gave the request; the reply carries it back.
    std::string method;  ///< The method the peer called.
    boost::json::value params;  ///< The call's params: an object, an array, or null when there were none.
    CancellationToken cancellation;  ///< cancelled when the peer cancels or the connection ends
    /// For the dispatcher alone: what try_handle_now left for handle_request to carry on with.
    std::shared_ptr<void> dispatcher_state;
    /// Who sent it, as the channel told (see MessageOrigin); null when it did not say.
    std::shared_ptr<const MessageOrigin> origin;
};

/// The layer above: decides what the peer's calls mean.
class MCP_API Dispatcher {
public:
    virtual ~Dispatcher() = default;
    /// Answers one request. Many may run at once; they complete in any order. An exception
    /// becomes an internal error reply.
    virtual boost::asio::awaitable<Reply> handle_request(InboundRequest& request) = 0;
    /// Answers a request at once when that needs no waiting, sparing it a coroutine; returns
    /// nothing to send it on to handle_request (with any dispatcher_state it set). The request
    /// cannot be cancelled while this runs.
    virtual std::optional<Reply> try_handle_now(InboundRequest&) { return std::nullopt; }
    /// Handles one notification. Must not block.
    virtual void handle_notification(Notification& notification) = 0;
    /// The peer's input has ended. Requests that only end when the peer says so (MCP's
    /// subscriptions/listen) should be cancelled now; the others may still finish.
    virtual void input_ended() {}
};

/// How a Connection treats timeouts, batches, protocol errors and the end of the peer's input.
struct MCP_API ConnectionOptions {
    /// Timeout for our outgoing requests when the call gives none. Zero means no timeout.
    std::chrono::milliseconds default_timeout{std::chrono::seconds(60)};
    /// Whether the peer may send batches (JSON arrays). The layer above switches this per
    /// negotiated protocol version; a refused batch gets one Invalid Request error.
    bool allow_batches = false;
    /// Called when one of our requests is given up (timeout or cancellation) so the layer above
    /// can tell the peer (MCP sends notifications/cancelled).
    std::function<void(const RequestId&, const std::string& reason)> on_request_abandoned;
    /// After the peer's input ends, requests still in flight get this long to finish and be
    /// answered (a peer may write its last requests and close at once). Then they are cancelled.
    std::chrono::milliseconds drain_timeout{std::chrono::seconds(10)};
    /// The peer's requests that may run at once. Past it a request is answered at once with
    /// error_code::too_many_requests and its params are let go: without a cap, a peer that keeps
    /// sending slow requests (or, over HTTP, posts and hangs up) holds memory without bound.
    std::size_t max_requests_in_flight = 256;
    /// Called for each frame the peer sent that we could not accept, after the error reply.
    std::function<void(const ErrorObject&)> on_protocol_error;
};

/// Per-call settings for Connection::call.
struct MCP_API CallOptions {
    /// Overrides ConnectionOptions::default_timeout; zero means none.
    std::optional<std::chrono::milliseconds> timeout;
    /// Cancels the call: it then completes with error_code::request_cancelled.
    CancellationToken cancellation;
    /// The peer's request being served when this call is made (see FrameInfo::request).
    std::optional<RequestId> related_request;
    /// Called with the id the request was given, before it is sent.
    std::function<void(const RequestId&)> on_id_assigned;
};

/// The JSON-RPC 2.0 engine for one conversation over a MessageChannel: answers the peer's requests
/// through a Dispatcher and correlates the responses to our own. Lives on the channel's executor;
/// notify() may be called from any thread. Must be owned by a shared_ptr (run() and call() use
/// shared_from_this).
class MCP_API Connection : public std::enable_shared_from_this<Connection> {
public:
    /// `dispatcher` is held weakly: its owner keeps it alive for as long as calls should be served.
    Connection(std::shared_ptr<MessageChannel> channel, std::shared_ptr<Dispatcher> dispatcher,
               ConnectionOptions options = {});
    /// Defined out of line, where the private PendingCall and Batch types are complete.
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    /// Reads and dispatches until the peer closes or close() is called. Afterwards every
    /// outgoing call completes with connection_closed and every inbound request is cancelled.
    boost::asio::awaitable<void> run();

    /// Sends a request and waits for its response. Timeouts, cancellation and a closed
    /// connection come back as error responses with the local codes in ErrorCodes.hpp.
    boost::asio::awaitable<Response> call(std::string_view method, boost::json::value params,
                                          CallOptions options = {});
    /// Sends a notification. Safe from any thread.
    void notify(std::string_view method, const boost::json::value& params, FrameInfo context = {});

    /// Cancels the peer's in-flight request `id`; its reply will not be sent. Returns false if
    /// no such request is in flight. Call on the executor.
    bool cancel_inbound(const RequestId& id, const std::string& reason);
    /// Restarts the timeout of our request `id` (MCP resets it on progress). Call on the executor.
    void extend_deadline(const RequestId& id);
    /// Whether our request `id` is still waiting for its response.
    bool is_pending(const RequestId& id) const { return pending_.contains(id); }

    /// Allows or refuses batches from now on (the layer above sets it once the protocol version is known).
    void set_allow_batches(bool allow) { options_.allow_batches = allow; }
    /// Closes the channel without the grace period for requests in flight; run() then finishes. Call on
    /// the executor; calling it again does nothing.
    void close();
    /// True once run() has stopped reading and cancelled the peer's requests still in flight.
    bool closed() const { return closed_; }
    /// The channel this connection reads and writes.
    MessageChannel& channel() { return *channel_; }
    /// The channel's executor, on which the connection runs.
    boost::asio::any_io_executor executor() const { return channel_->executor(); }

private:
    struct PendingCall;
    struct Batch;

    void handle_frame(std::string_view frame);
    void handle_decoded(Decoded&& decoded);
    void handle_item(DecodedItem&& item, const std::shared_ptr<Batch>& batch,
                     const std::shared_ptr<const MessageOrigin>& origin);
    void start_request(Request&& request, const std::shared_ptr<Batch>& batch,
                       const std::shared_ptr<const MessageOrigin>& origin);
    boost::asio::awaitable<void> serve(InboundRequest request, std::shared_ptr<Batch> batch,
                                       std::shared_ptr<Dispatcher> dispatcher);
    /// Answers a request (or a bad frame) without running anything; counts it in its batch.
    void answer_at_once(const RequestId& id, const Reply& reply, const std::shared_ptr<Batch>& batch);
    /// The same for a frame the peer got wrong, which is also reported to on_protocol_error.
    void refuse(const RequestId& id, const ErrorObject& error, const std::shared_ptr<Batch>& batch);
    void deliver_reply(const RequestId& id, const Reply& reply, Batch* batch);
    void finish_batch_member(Batch& batch);
    void complete(Response&& response);
    void send_frame(std::string_view frame, FrameInfo context);
    bool on_io_thread() const { return std::this_thread::get_id() == io_thread_; }

    std::shared_ptr<MessageChannel> channel_;
    /// Weak: the owner of the session (a Server's serve(), a Client) keeps it alive, and the
    /// session holds this connection, so a strong pointer here would be a cycle.
    std::weak_ptr<Dispatcher> dispatcher_;
    ConnectionOptions options_;
    Decoder decoder_;
    std::string scratch_;  ///< reused buffer for encoding on the I/O thread
    std::int64_t next_id_ = 1;
    std::unordered_map<RequestId, std::shared_ptr<PendingCall>> pending_;
    std::unordered_map<RequestId, CancellationSource> inbound_;
    std::thread::id io_thread_;
    std::unique_ptr<boost::asio::steady_timer> drain_timer_;  ///< set while waiting at end of input
    bool input_ended_ = false;     ///< the peer can no longer answer our calls
    bool close_requested_ = false;  ///< close() was called: no draining
    bool closed_ = false;
};

}  // namespace mcp::jsonrpc
