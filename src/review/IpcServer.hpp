#pragma once
// The editor side of the review IPC, as the C++ panel serves it: a Unix socket (mode 0600) that
// reads one JSON message per line, {type, payload, id}, and answers each with one line,
// {id, success, error?}. Any number of clients; each client's messages are answered in order.
// A line that is not JSON gets {id:"unknown", success:false, error:"Invalid JSON message"}.

#include <boost/asio/any_io_executor.hpp>
#include <boost/json/object.hpp>

#include <functional>
#include <memory>
#include <string>

namespace mcpkit::review {

struct IpcReply {
    bool success = true;
    std::string error;
};

class IpcServer {
public:
    /// Called for each well-formed message on the server's executor.
    using Handler = std::function<IpcReply(std::string_view type, const boost::json::object& payload)>;

    IpcServer(boost::asio::any_io_executor executor, std::string socket_path, Handler handler,
              std::size_t max_message_bytes = 64u << 20);
    ~IpcServer();

    /// Binds and listens. A stale socket file (nobody listening) is replaced; a live one is not.
    /// Throws std::runtime_error with the reason and the fix.
    void start();
    /// Stops listening, closes every client and removes the socket file.
    void stop();
    const std::string& socket_path() const;

private:
    struct State;
    std::shared_ptr<State> state_;
};

/// The reply line (without the newline) for one received line: shared by the server and tests.
std::string answer_line(std::string_view line, const IpcServer::Handler& handler);

}  // namespace mcpkit::review
