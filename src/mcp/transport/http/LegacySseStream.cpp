#include "transport/http/LegacySseStream.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>

#include <memory>

namespace mcp::http {
namespace asio = boost::asio;
namespace web = boost::beast::http;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

/// Where the opening waits for the endpoint, and the reading tells it, whichever comes first.
struct EndpointWait {
    EndpointWait(const asio::any_io_executor& executor, std::chrono::milliseconds timeout) : timer(executor, timeout) {}
    void settle() {
        settled = true;
        timer.cancel();
    }
    asio::steady_timer timer;
    bool settled = false;
    bool given_up = false;  ///< the opening stopped waiting: the stream is of no use
    std::optional<HttpUrl> endpoint;
};

asio::awaitable<void> read_stream(std::shared_ptr<HttpExchange> exchange, std::shared_ptr<EndpointWait> wait,
                                  HttpUrl base, LegacySseHandlers handlers) {
    // A server that never ends an event must not fill our memory.
    SseParser parser(64u << 20);
    std::string too_long = co_await exchange->read_events(parser, [&](SseEvent& event) {
        if (wait->given_up) return;
        if (!wait->settled && event.type == "endpoint") {
            wait->endpoint = resolve_same_origin(base, event.data);
            if (!wait->endpoint && handlers.log) handlers.log("ignored an endpoint on another origin: " + event.data);
            wait->settle();
        } else if (handlers.on_event) {
            handlers.on_event(event);
        }
    });
    if (!too_long.empty() && handlers.log) handlers.log("dropped the server's event stream: " + too_long);
    bool was_in_use = wait->settled && wait->endpoint && !wait->given_up;
    wait->settle();
    if (was_in_use && handlers.on_end) handlers.on_end();
}

}  // namespace

asio::awaitable<std::optional<HttpUrl>> open_legacy_sse_stream(ConnectionPool& pool,
                                                               web::request<web::string_body> request, HttpUrl base,
                                                               std::chrono::milliseconds timeout,
                                                               LegacySseHandlers handlers) {
    auto stream = co_await pool.acquire(timeout);
    if (!stream) co_return std::nullopt;
    auto exchange = std::make_shared<HttpExchange>(stream);
    // Each co_await stands alone: g++ 12 miscompiled `!co_await … || …` here, and the fallback
    // closed the stream before reading its endpoint event.
    bool started = co_await exchange->start(request, timeout);
    if (!started || exchange->head().result_int() != 200 ||
        !std::string_view(exchange->head()[web::field::content_type]).starts_with("text/event-stream"))
        co_return std::nullopt;
    auto executor = co_await asio::this_coro::executor;
    auto wait = std::make_shared<EndpointWait>(executor, timeout);
    asio::co_spawn(executor, read_stream(exchange, wait, std::move(base), std::move(handlers)), asio::detached);
    // The endpoint event may have been read already (the stream starts reading at once).
    if (!wait->settled) co_await wait->timer.async_wait(use_tuple);
    if (!wait->endpoint) {
        wait->given_up = true;
        boost::system::error_code ignored;
        stream->lowest().socket().close(ignored);
    }
    co_return wait->endpoint;
}

}  // namespace mcp::http
