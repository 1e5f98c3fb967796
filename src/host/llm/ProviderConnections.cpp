#include "host/llm/ProviderConnections.hpp"

#include <boost/asio/this_coro.hpp>

namespace mcpkit::host {
namespace {

/// Enough for every conversation of a busy host to find its connection again; beyond it, the
/// connections of a burst are closed as they come back.
constexpr std::size_t max_idle_connections = 128;
/// Providers close a connection idle for long anyway; one unused this long is closed here first.
constexpr std::chrono::minutes max_idle_time{2};

/// Forgets the cancellation callback however the request ends.
class CancellationCallback {
public:
    CancellationCallback(const mcp::CancellationToken& token, std::function<void()> callback)
        : token_(token), id_(token.on_cancel(std::move(callback))) {}
    ~CancellationCallback() { token_.forget(id_); }
    CancellationCallback(const CancellationCallback&) = delete;
    CancellationCallback& operator=(const CancellationCallback&) = delete;

private:
    mcp::CancellationToken token_;
    std::size_t id_;
};

}  // namespace

boost::asio::awaitable<mcp::HttpResponse> ProviderConnections::send_streaming(
    mcp::HttpRequest request, mcp::CancellationToken cancellation, std::function<void(std::string_view)> on_bytes) {
    close_idle();
    std::unique_ptr<mcp::HttpClient> connection;
    if (!idle_.empty()) {
        connection = std::move(idle_.back().connection);
        idle_.pop_back();
    } else {
        connection = std::make_unique<mcp::HttpClient>(co_await boost::asio::this_coro::executor, options_);
    }
    mcp::HttpResponse response;
    {
        mcp::HttpClient* open = connection.get();
        CancellationCallback close_on_cancel(cancellation, [open] { open->close(); });
        // A throw (broken, cancelled, timed out) drops the connection with this frame.
        response = co_await connection->send_streaming(std::move(request), std::move(on_bytes));
    }
    if (!cancellation.cancelled() && idle_.size() < max_idle_connections)
        idle_.push_back({std::move(connection), std::chrono::steady_clock::now()});
    co_return response;
}

void ProviderConnections::close_idle() {
    auto now = std::chrono::steady_clock::now();
    std::erase_if(idle_, [&](const Idle& idle) { return now - idle.since > max_idle_time; });
}

}  // namespace mcpkit::host
