#pragma once
// The HTTP connections to one LLM provider, owned by its adapter. A request borrows a kept-alive
// connection (or opens one) and gives it back when its answer ended well. A stream is aborted by
// closing its connection, so one that was cancelled or broke is dropped, never reused; the
// conversation only says "cancel".

#include <mcp/Cancellation.hpp>
#include <mcp/transport/HttpClient.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace mcpkit::host {

class ProviderConnections {
public:
    explicit ProviderConnections(mcp::HttpClientOptions options) : options_(std::move(options)) {}

    /// Sends `request` and streams the body to `on_bytes`; `cancellation` closes the connection
    /// (the send then throws mcp::HttpError). Runs on the caller's executor.
    boost::asio::awaitable<mcp::HttpResponse> send_streaming(mcp::HttpRequest request,
                                                             mcp::CancellationToken cancellation,
                                                             std::function<void(std::string_view)> on_bytes);

    /// Closes the connections unused for longer than providers keep them (the host's cleanup timer
    /// calls this, so that a quiet host holds no half-closed sockets).
    void close_idle();

private:
    mcp::HttpClientOptions options_;
    struct Idle {
        std::unique_ptr<mcp::HttpClient> connection;
        std::chrono::steady_clock::time_point since;
    };
    /// Connections no request is using, newest last (the likeliest to be alive still).
    std::vector<Idle> idle_;
};

}  // namespace mcpkit::host
