#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The Transport a Server sees for one Streamable HTTP session (2025 era), or for one stateless
// POST (2026-07-28). Inbound messages arrive already decoded from the HTTP side; outgoing frames
// are routed to the HTTP response they belong to:
// - a response goes to the POST that carried its request;
// - a notification or request made on behalf of a request goes on that POST's stream too,
//   turning it from a JSON answer into an SSE stream;
// - anything else goes on the session's standalone GET stream.
// Session streams number their events and log them in the SessionStore, so a client that lost a
// stream (or was told to go away: SSE polling) resumes it with Last-Event-ID.
//
// Everything here runs on the Server's thread.

#include "mcp/jsonrpc/Codec.hpp"
#include "mcp/transport/SessionStore.hpp"
#include "mcp/transport/Transport.hpp"
#include "transport/RequestStreamControl.hpp"
#include "transport/http/ResponseStream.hpp"

#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <functional>
#include <unordered_map>

namespace mcp::http {

struct SessionSettings {
    std::string session_id;  ///< empty: a stateless exchange (no ids, no log, no standalone stream)
    std::shared_ptr<SessionStore> store;
    std::size_t max_events = 1024;
    std::chrono::milliseconds retry{1000};
    std::string instance;  ///< this process among those sharing the store (it owns the streams it opens)
    std::function<void(std::string_view)> log;
};

/// What a POST hands to the session.
struct PostExchange {
    jsonrpc::Decoded messages;
    std::shared_ptr<ResponseStream> http;
    bool accepts_sse = true;
    bool priming = false;  ///< start SSE streams with an id-only event carrying `retry` (2025-11-25 on)
    bool modern = false;   ///< 2026-07-28: some error codes become HTTP statuses
    std::string body;      ///< the POST as sent: recorded with its stream, so another instance can take it over
};

class HttpSessionTransport : public Transport,
                             public RequestStreamControl,
                             public std::enable_shared_from_this<HttpSessionTransport> {
public:
    HttpSessionTransport(boost::asio::any_io_executor executor, SessionSettings settings);
    ~HttpSessionTransport() override;

    boost::asio::awaitable<jsonrpc::ChannelRead> read() override;
    void send(std::string_view frame, jsonrpc::FrameInfo context) override;
    void close() override;
    void close_request_stream(const jsonrpc::RequestId& id) override;
    /// A cancelled request: its id is free again, and its stream ends once nothing else waits on it.
    void request_ended_unanswered(const jsonrpc::RequestId& id) override;
    boost::asio::any_io_executor executor() const override { return executor_; }

    /// Hands over a POST. Its requests are answered on `exchange.http`; a POST without requests
    /// gets 202 at once.
    void deliver(PostExchange exchange);
    /// Opens the standalone GET stream. False if one is already open.
    bool open_standalone(const std::shared_ptr<ResponseStream>& http, bool priming);
    /// Resumes a stream after event `after`, replaying what the client missed. A stream another
    /// instance writes is followed through the store while that instance lives, and taken over
    /// (its request run again here) once it is gone. False if the stream is unknown here and in the store.
    bool resume(const std::string& stream_id, std::uint64_t after, const std::shared_ptr<ResponseStream>& http);
    /// The client dropped `http`; what follows for it is only logged.
    void client_left(const std::shared_ptr<ResponseStream>& http);
    /// No request in flight and no stream open.
    bool idle() const;
    /// Some request still waits for its answer.
    bool requests_in_flight() const { return !by_request_.empty() || !batch_streams_.empty(); }
    /// Answers every request still in flight with a JSON-RPC error (the server is going away), so
    /// no client is left waiting on a stream that simply ends.
    void fail_requests_in_flight(std::string_view message);
    bool closed() const { return closed_; }
    const std::string& session_id() const { return settings_.session_id; }
    /// Called (once) when a stateless exchange has answered everything, or its client left.
    std::function<void()> on_finished;
    /// Calls on_finished if it has not been called yet.
    void report_finished();

private:
    struct OutboundStream;

    std::shared_ptr<OutboundStream> new_stream(const std::shared_ptr<ResponseStream>& http, bool priming, bool modern);
    void emit(const std::shared_ptr<OutboundStream>& stream, std::string_view frame);
    /// Turns a stream into SSE; a session stream gets its id (and becomes resumable) here.
    void start_events(const std::shared_ptr<OutboundStream>& stream);
    void answer(const std::shared_ptr<OutboundStream>& stream, std::string_view frame, const jsonrpc::FrameInfo& context);
    void end_stream(OutboundStream& stream);
    void wake_reader();
    /// The first of `ids` that a request in flight already uses, if any.
    const jsonrpc::RequestId* id_in_flight(const std::vector<jsonrpc::RequestId>& ids) const;
    /// Makes `stream` the answer to requests `ids`, and queues `messages` for the server.
    void enqueue(const std::shared_ptr<OutboundStream>& stream, std::vector<jsonrpc::RequestId> ids,
                 jsonrpc::Decoded messages);
    /// Relays, from the store, the events another instance writes on `stream_id`.
    boost::asio::awaitable<void> follow(std::string stream_id, std::uint64_t last, std::shared_ptr<ResponseStream> http);
    /// Continues here a stream whose writer is gone, from sequence `next_sequence`.
    void adopt(const std::string& stream_id, std::uint64_t next_sequence, const std::string& request,
               const std::shared_ptr<ResponseStream>& http);
    /// Runs a store call whose failure only costs resumability: it is logged, the live stream goes on.
    template <typename Call>
    void record(Call&& call);

    boost::asio::any_io_executor executor_;
    SessionSettings settings_;
    std::deque<jsonrpc::Decoded> inbound_;
    jsonrpc::Decoded current_;
    boost::asio::steady_timer reader_wake_;
    bool reader_waiting_ = false;
    bool closed_ = false;
    bool abandoned_ = false;  ///< stateless, and the client closed the response: cancel, do not drain
    std::unordered_map<jsonrpc::RequestId, std::shared_ptr<OutboundStream>> by_request_;
    std::deque<std::shared_ptr<OutboundStream>> batch_streams_;  ///< POSTs waiting for a batch reply
    std::unordered_map<std::string, std::shared_ptr<OutboundStream>> live_streams_;  ///< by stream id
    std::shared_ptr<OutboundStream> standalone_;
};

}  // namespace mcp::http
