#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// One HTTP response on its way out: the MCP side (the Server's thread) decides what it is and
// feeds it; the HTTP connection (its own thread) waits for it and writes it. This is the only
// object the two threads share per response, so it is the only one with a lock.
//
// A response is one of: a status with no body (202, 404 …), a single JSON body, or an SSE stream
// of events that ends when the MCP side finishes it (or the client goes away).

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace mcp::http {

class ResponseStream : public std::enable_shared_from_this<ResponseStream> {
public:
    enum class Kind { undecided, json, sse };
    /// Events not yet written past this mean the client stopped reading: the stream is given up
    /// as if the client had gone (it may resume from the event store, where one is kept). A
    /// replay sends at most half of it at a time (HttpSessionTransport::resume).
    static constexpr std::size_t max_unsent_bytes = std::size_t{64} << 20;
    static constexpr std::size_t max_replay_bytes = max_unsent_bytes / 2;

    /// What the connection should write next.
    struct Update {
        Kind kind = Kind::undecided;
        int status = 200;
        std::string session_id;  ///< Mcp-Session-Id to send with the head, if any
        std::string www_authenticate;  ///< WWW-Authenticate to send with the head, if any
        std::string body;        ///< json: the whole body; sse: event text to append
        bool head_pending = false;  ///< the head has not been written yet
        bool finished = false;      ///< nothing will follow (sse: end the stream)
        bool timed_out = false;     ///< nothing arrived within the wait
    };

    explicit ResponseStream(boost::asio::io_context::executor_type connection_executor);

    // From the MCP side.
    /// The Mcp-Session-Id header the head will carry.
    void set_session_id(std::string session_id);
    /// Answers with a JSON body (empty: no body), which ends the response.
    void respond(int status, std::string body);
    /// The same, for a refusal that names what authorization is missing.
    void refuse(int status, std::string body, std::string www_authenticate);
    /// Starts an SSE stream (status 200); events follow.
    void start_events();
    /// Appends one event; `id` may be empty. A `retry` above zero adds the field.
    void push_event(std::string_view id, std::string_view data, std::chrono::milliseconds retry = {});
    /// Ends the response. An undecided one becomes a bare 202.
    void finish();
    bool client_gone() const;

    // From the connection.
    /// Waits until there is something to write, or `timeout` passes.
    boost::asio::awaitable<Update> next(std::chrono::milliseconds timeout);
    /// The client closed the connection or a write failed: the MCP side will drop what follows.
    void mark_client_gone();
    Kind kind() const;

    /// Set and called on the MCP side only: the connection posts a call to it when the client goes.
    std::function<void()> on_client_gone;

private:
    void wake_locked();

    boost::asio::io_context::executor_type executor_;
    boost::asio::steady_timer timer_;  ///< touched only on the connection's thread
    mutable std::mutex mutex_;
    Kind kind_ = Kind::undecided;
    int status_ = 200;
    std::string session_id_;
    std::string www_authenticate_;
    std::string pending_;
    bool head_written_ = false;
    bool finished_ = false;
    bool finish_reported_ = false;
    bool client_gone_ = false;
    bool waiting_ = false;
};

}  // namespace mcp::http
