#pragma once
// One page's WebSocket: frames out through a queue (a slow page cannot block the host, and one
// that falls too far behind is disconnected), frames in handed to a callback, Beast's own pings
// every 30 s with the connection closed after 60 s of silence, messages over 1 MiB refused.

#include "host/chat/ChatSession.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <vector>
#include <functional>
#include <memory>
#include <string>

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
    WebSocketClient(boost::beast::tcp_stream stream, WebSocketLimits limits);

    /// Completes the upgrade of `request`, then reads until the page leaves.
    boost::asio::awaitable<void> run(boost::beast::http::request<boost::beast::http::string_body> request);
    void send(std::shared_ptr<const std::string> frame) override;
    void close();

    WebSocketHandler* handler = nullptr;

    std::string id;
    std::string session_id;
    std::int64_t connected_at = 0;
    bool resumed = false;  ///< the page asked for a session that existed

private:
    boost::asio::awaitable<void> write_queued();
    boost::beast::websocket::stream<boost::beast::tcp_stream> socket_;
    WebSocketLimits limits_;
    /// Frames waiting to be written. A vector: an idle page's queue holds no memory (an empty
    /// std::deque already holds over 500 bytes), and it is short when it is not empty.
    std::vector<std::shared_ptr<const std::string>> queue_;
    std::size_t queued_bytes_ = 0;
    bool writing_ = false;
    bool open_ = false;
    bool closed_ = false;
};

}  // namespace mcpkit::host
