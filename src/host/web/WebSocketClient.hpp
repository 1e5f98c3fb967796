#pragma once
// One page's WebSocket (RFC 6455, server side, framing in WebSocketFrames). Frames out go through
// a queue written in one gather write per tick: a turn's frames (its status, text, tool card,
// usage) cost one system call where they come together, not one each; a page that falls too far
// behind is disconnected. Frames in are handed to the handler. An idle page holds no buffer and
// no timer: it waits for readability, and the server's heartbeat sweep pings it after half the
// idle window of silence and drops it after all of it. Messages over 1 MiB are refused (1009).

#include "host/chat/ChatSession.hpp"
#include "host/web/WebSocketFrames.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace mcpkit::host {

struct WebSocketLimits {
    std::size_t max_message_bytes = 1u << 20;
    std::chrono::seconds idle_timeout{60};  ///< a ping at half of it
    std::size_t max_queued_bytes = 32u << 20;
};

class WebSocketClient;

/// What happens to a page's connection, told to whoever serves the pages (one object for all of
/// them: an idle page then costs a pointer, not three callbacks).
class WebSocketHandler {
public:
    virtual ~WebSocketHandler() = default;
    virtual void opened(const std::shared_ptr<WebSocketClient>& client) = 0;
    virtual void received(const std::shared_ptr<WebSocketClient>& client, std::string_view text) = 0;
    virtual void closed(const std::shared_ptr<WebSocketClient>& client) = 0;
};

class WebSocketClient : public SessionClient, public std::enable_shared_from_this<WebSocketClient> {
public:
    WebSocketClient(boost::asio::ip::tcp::socket socket, WebSocketLimits limits);

    /// The handshake was answered (101, by the HTTP server): handles `early_bytes` (frames that
    /// came with the upgrade request), then reads until the page leaves (no coroutine: an idle
    /// page is one pending wait for readability).
    void start(std::string_view early_bytes);
    void send(std::shared_ptr<const std::string> frame) override;
    void send_queued() override;
    /// Drops the connection at once (the host is stopping, or the page is hopelessly behind).
    void close();
    /// The server's sweep: a ping after half the idle window of silence, the connection dropped
    /// after all of it, and a close handshake the page never finished given up after 5 s.
    void heartbeat(std::chrono::steady_clock::time_point now);
    bool ended() const { return state_ == State::closed; }

    WebSocketHandler* handler = nullptr;

    std::string id;
    std::string session_id;
    std::int64_t connected_at = 0;
    bool resumed = false;  ///< the page asked for a session that existed

private:
    struct Outgoing {
        std::shared_ptr<const std::string> bytes;
        websocket::Opcode opcode;
    };
    enum class State : std::uint8_t { connecting, open, closing, closed };
    /// What a queued frame costs, counted against max_queued_bytes: its bytes and the entry that
    /// holds them, so that a flood of empty control frames counts too.
    static std::size_t weight(const Outgoing& outgoing) { return outgoing.bytes->size() + 64; }

    void wait_for_input();
    void readable(const boost::system::error_code& error);
    bool read_available();
    void handle(const websocket::FrameEvent& event);
    void queue(Outgoing outgoing);
    void schedule_flush();
    void flush();
    void written(const boost::system::error_code& error);
    void begin_close(std::uint16_t code, std::string_view reason, bool then_end);
    void end();

    boost::asio::ip::tcp::socket socket_;
    WebSocketLimits limits_;
    websocket::FrameReader reader_;
    std::string partial_;  ///< the start of a frame whose rest has not arrived
    std::vector<Outgoing> queue_;
    std::size_t in_flight_ = 0;  ///< how many of queue_'s first entries the write in progress holds
    std::vector<boost::asio::const_buffer> buffers_;
    std::vector<std::array<std::uint8_t, 10>> headers_;
    std::size_t queued_bytes_ = 0;
    std::chrono::steady_clock::time_point heard_;
    std::chrono::steady_clock::time_point closing_since_;
    State state_ = State::connecting;
    bool writing_ = false;
    bool flush_scheduled_ = false;
    bool pinged_ = false;
    bool close_sent_ = false;
    bool end_after_write_ = false;
};

}  // namespace mcpkit::host
