#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The implementation behind StreamableHttpClientTransport::create. Its work is in three files:
// - StreamableHttpClientTransport.cpp: what the engine sees (read, send, close, shutdown) and how
//   answers reach it;
// - StreamableHttpClientPost.cpp: one POST per message, in order, with its answer, a sign-in on
//   401/403 and a new session on 404;
// - StreamableHttpClientStreams.cpp: the GET streams (standalone, and resuming a broken answer
//   with Last-Event-ID), initializing again, and the 2024-11-05 HTTP+SSE fallback.

#include "mcp/jsonrpc/Codec.hpp"
#include "mcp/transport/StreamableHttpClientTransport.hpp"
#include "transport/http/HttpClientConnection.hpp"
#include "transport/http/OpenRequests.hpp"
#include "transport/http/RequestLedger.hpp"
#include "transport/http/SendGate.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>

namespace mcp::http {

class StreamableHttpClient final : public StreamableHttpClientTransport,
                                   public std::enable_shared_from_this<StreamableHttpClient> {
public:
    StreamableHttpClient(boost::asio::any_io_executor executor, StreamableHttpClientOptions options);

    boost::asio::awaitable<jsonrpc::ChannelRead> read() override;
    void send(std::string_view frame, jsonrpc::FrameInfo) override;
    void close() override;
    boost::asio::any_io_executor executor() const override { return executor_; }
    const std::string& session_id() const override { return session_id_; }
    bool using_legacy_transport() const override { return legacy_.has_value(); }
    boost::asio::awaitable<void> shutdown() override;

private:
    using Request = boost::beast::http::request<boost::beast::http::string_body>;
    static constexpr auto use_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);
    static constexpr std::size_t max_json_body = 64u << 20;
    /// How long the sender waits for one POST's response head before sending the next message, so
    /// messages reach the server in order without a slow answer holding the others back.
    static constexpr std::chrono::milliseconds head_gate{250};
    /// Authorizations one message may cause before its refusal is final (a server that keeps
    /// saying insufficient_scope must not loop us through the authorization server forever).
    static constexpr int max_authorizations_per_message = 3;

    static bool is_event_stream_type(std::string_view content_type) {
        return content_type.starts_with("text/event-stream");
    }

    struct Outgoing {
        std::string frame;
        boost::json::value parsed;
        std::string method;  ///< empty for responses
        std::optional<jsonrpc::RequestId> id;
        bool modern = false;
        int attempts = 0;
        int authorizations = 0;
        std::string authorization;  ///< the Authorization header it was last sent with
    };

    /// A GET for an SSE stream on the endpoint, with the answer's head read.
    struct EventStream {
        std::shared_ptr<ClientStream> connection;  ///< null: no connection could be made
        std::unique_ptr<HttpExchange> exchange;    ///< null with the connection
        /// Stands in for a 2026-07-28 request's POST while its answer is resumed here.
        std::unique_ptr<OpenRequests::Registration> registration;
        bool answered = false;  ///< the head came
        bool is_event_stream() const;
    };

    // ---- sending (StreamableHttpClientPost.cpp) ----
    boost::asio::awaitable<void> run_sender();
    boost::asio::awaitable<void> send_in_order(std::shared_ptr<Outgoing> message);
    std::optional<Outgoing> prepare(std::string frame);
    Request make_request(boost::beast::http::verb verb, const HttpUrl& target, std::string body) const;
    boost::asio::awaitable<void> post(std::shared_ptr<Outgoing> message, std::shared_ptr<SendGate> gate,
                                      std::shared_ptr<OpenRequests::Send> sending = nullptr);
    boost::asio::awaitable<void> answer_refusal(HttpExchange& exchange, std::shared_ptr<ClientStream> stream,
                                                std::shared_ptr<Outgoing> message, int status,
                                                std::shared_ptr<SendGate> gate);

    // ---- streams (StreamableHttpClientStreams.cpp) ----
    boost::asio::awaitable<EventStream> open_event_stream(const std::string& last_event_id,
                                                          const jsonrpc::RequestId* resuming);
    boost::asio::awaitable<void> read_events(HttpExchange& exchange, std::optional<jsonrpc::RequestId> waiting_for);
    boost::asio::awaitable<void> resume(std::string last_event_id, std::optional<std::chrono::milliseconds> retry,
                                        jsonrpc::RequestId waiting_for);
    void start_get_stream();
    boost::asio::awaitable<void> run_get_stream(std::shared_ptr<SendGate> gate);
    boost::asio::awaitable<bool> reinitialize();
    boost::asio::awaitable<bool> start_legacy();

    // ---- receiving (StreamableHttpClientTransport.cpp) ----
    void deliver(std::string_view frame, std::shared_ptr<const jsonrpc::MessageOrigin> origin = nullptr);
    void deliver_event(const SseEvent& event, const std::shared_ptr<const jsonrpc::MessageOrigin>& origin = nullptr);
    static std::shared_ptr<const jsonrpc::MessageOrigin> related_origin(const std::optional<jsonrpc::RequestId>& id);
    bool answered(const jsonrpc::RequestId& id) const { return ledger_.answered(id); }
    void fail(const Outgoing& message, const std::string& reason);
    void fail_id(const jsonrpc::RequestId& id, const std::string& reason);

    boost::asio::any_io_executor executor_;
    StreamableHttpClientOptions options_;
    HttpUrl url_;
    ConnectionPool pool_;
    std::optional<HttpUrl> legacy_;
    jsonrpc::Decoder decoder_;
    RequestLedger ledger_;
    std::deque<jsonrpc::Decoded> inbound_;
    jsonrpc::Decoded current_;
    boost::asio::steady_timer reader_wake_;
    bool reader_waiting_ = false;
    std::deque<std::string> outgoing_;
    OpenRequests open_{executor_};
    boost::asio::steady_timer sender_wake_;
    bool sender_running_ = false;
    bool sender_waiting_ = false;
    std::shared_ptr<SendGate> get_gate_;
    bool closed_ = false;
    bool shutting_down_ = false;  ///< shutdown() began: nothing is sent again in a new session
    std::string session_id_;
    std::string authorization_;  ///< the newest Authorization header (GET streams, DELETE use it)
    std::string initialize_frame_;
    int reinitializations_ = 0;
    bool get_stream_started_ = false;
};

}  // namespace mcp::http
