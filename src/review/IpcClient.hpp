#pragma once
// The MCP server's side of the review IPC: a client of the editor's Unix socket that sends one
// JSON message per line, {type, payload, id} with a UUID v4 id, and matches each {id, success,
// error?} reply to its request.
//
// The connection opens on the first request and is reused. While the socket is missing or
// refuses, a request retries with backoff until its timeout: the panel may start after the
// server. Every request waits in a pending map that is cleared when it is answered, when it times
// out, when it is cancelled and when the connection drops, so nothing is ever left there.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {
class CancellationToken;
}

namespace mcpkit::review {

/// Where a panel may be listening, and what was looked at to find out (for error messages).
struct SocketCandidates {
    std::vector<std::string> paths;  ///< in the order to try
    std::string searched;            ///< e.g. "DIALECTIC_IPC_PATH is not set and /run/…/review-panel.json does not exist"
};

struct IpcClientOptions {
    /// Called before each connection attempt: the panel may move between attempts.
    std::function<SocketCandidates()> locate;
    std::chrono::milliseconds timeout{5000};  ///< per request, connecting included
    std::chrono::milliseconds first_retry{50};
    std::chrono::milliseconds max_retry{1000};
    std::size_t max_reply_bytes = 1 << 20;
};

struct IpcOutcome {
    enum class Kind { answered, no_panel, unreachable, timed_out, connection_lost, cancelled, bad_reply };
    Kind kind = Kind::answered;
    bool success = false;      ///< answered: the panel's verdict
    std::string error;         ///< answered and !success: the panel's error; otherwise what went wrong
    std::string socket;        ///< the socket tried or used, if any
};

class IpcClient {
public:
    IpcClient(boost::asio::any_io_executor executor, IpcClientOptions options);
    ~IpcClient();

    /// Sends one request and waits for its reply. Never throws.
    boost::asio::awaitable<IpcOutcome> request(std::string type, boost::json::object payload,
                                               const mcp::CancellationToken* cancellation = nullptr);
    /// Requests waiting for a reply.
    std::size_t pending() const;
    bool connected() const;
    std::chrono::milliseconds timeout() const;
    /// Closes the connection; pending requests fail with connection_lost.
    void close();

private:
    struct State;
    std::shared_ptr<State> state_;
};

}  // namespace mcpkit::review
