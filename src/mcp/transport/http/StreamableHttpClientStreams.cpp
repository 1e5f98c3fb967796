#include "transport/http/StreamableHttpClient.hpp"

#include "transport/http/LegacySseStream.hpp"
#include "mcp/transport/SseParser.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcp::http {
namespace asio = boost::asio;
namespace web = boost::beast::http;
namespace json = boost::json;

bool StreamableHttpClient::EventStream::is_event_stream() const {
    return answered && exchange->head().result_int() == 200 &&
           is_event_stream_type(exchange->head()[web::field::content_type]);
}

/// `resuming`: the request whose answer this GET resumes, if any.
asio::awaitable<StreamableHttpClient::EventStream> StreamableHttpClient::open_event_stream(
    const std::string& last_event_id, const jsonrpc::RequestId* resuming) {
    EventStream opened;
    auto request = make_request(web::verb::get, url_, "");
    if (!last_event_id.empty()) request.set("Last-Event-ID", last_event_id);
    opened.connection = co_await pool_.acquire(options_.http_timeout);
    if (!opened.connection) co_return opened;
    // A cancellation while resuming closes the stream being resumed, not the old one.
    if (resuming && open_.tracks(*resuming))
        opened.registration = std::make_unique<OpenRequests::Registration>(open_, *resuming, opened.connection);
    opened.exchange = std::make_unique<HttpExchange>(opened.connection);
    opened.answered = co_await opened.exchange->start(request, options_.http_timeout);
    co_return opened;
}

/// Reads one SSE stream to its end, resuming it with GET + Last-Event-ID while `waiting_for`
/// (our request) has no answer yet.
asio::awaitable<void> StreamableHttpClient::read_events(HttpExchange& exchange,
                                                       std::optional<jsonrpc::RequestId> waiting_for) {
    auto self = shared_from_this();
    // A server that never ends an event must not fill our memory: the longest is a JSON body's.
    SseParser parser(max_json_body);
    auto origin = related_origin(waiting_for);
    std::string too_long = co_await exchange.read_events(parser, [&](SseEvent& event) { deliver_event(event, origin); });
    if (!too_long.empty()) {
        if (options_.log) options_.log("dropped a server's event stream: " + too_long);
        if (waiting_for && !answered(*waiting_for)) fail_id(*waiting_for, "the server's event stream broke: " + too_long);
        co_return;
    }
    if (!waiting_for || answered(*waiting_for) || closed_ || parser.last_event_id().empty() || legacy_ ||
        open_.given_up(*waiting_for))
        co_return;
    co_await resume(parser.last_event_id(), parser.retry(), *waiting_for);
}

asio::awaitable<void> StreamableHttpClient::resume(std::string last_event_id,
                                                  std::optional<std::chrono::milliseconds> retry,
                                                  jsonrpc::RequestId waiting_for) {
    auto self = shared_from_this();
    auto delay = retry.value_or(options_.reconnect_delay);
    for (int attempt = 0; attempt < options_.max_reconnects && !closed_ && !answered(waiting_for) &&
                          !open_.given_up(waiting_for);
         ++attempt) {
        asio::steady_timer wait(executor_, delay);
        co_await wait.async_wait(use_tuple);
        if (closed_ || answered(waiting_for) || open_.given_up(waiting_for)) co_return;
        EventStream resumed = co_await open_event_stream(last_event_id, &waiting_for);
        if (resumed.is_event_stream()) {
            SseParser parser(max_json_body);
            auto origin = related_origin(waiting_for);
            bool progressed = false;
            std::string too_long = co_await resumed.exchange->read_events(parser, [&](SseEvent& event) {
                progressed = true;
                deliver_event(event, origin);
                // Done with this stream once the answer is in; the server may keep it open.
                if (answered(waiting_for)) {
                    boost::system::error_code ignored;
                    resumed.connection->lowest().socket().close(ignored);
                }
            });
            if (!too_long.empty()) {
                if (!answered(waiting_for)) fail_id(waiting_for, "the server's event stream broke: " + too_long);
                co_return;
            }
            if (!parser.last_event_id().empty()) last_event_id = parser.last_event_id();
            if (parser.retry()) delay = *parser.retry();
            // Events came: the count starts again. A stream that ends empty is a failed attempt,
            // or a server answering every resume with nothing would keep us looping.
            if (progressed) attempt = -1;
            continue;
        }
        if (resumed.connection && options_.log)
            options_.log(resumed.answered
                             ? "resuming the stream got HTTP " + std::to_string(resumed.exchange->head().result_int())
                             : std::string("resuming the stream failed: no answer"));
        delay = std::chrono::duration_cast<std::chrono::milliseconds>(delay * 3 / 2);
    }
    if (!answered(waiting_for) && !closed_ && !open_.given_up(waiting_for)) {
        if (options_.log) options_.log("stream for request " + waiting_for.to_display() + " was lost");
        fail_id(waiting_for, "the server's stream ended without an answer and could not be resumed");
    }
}

void StreamableHttpClient::start_get_stream() {
    if (!options_.open_get_stream || get_stream_started_ || session_id_.empty()) return;
    get_stream_started_ = true;
    // Hold the sender until the GET is answered: a server may send its requests only there.
    auto gate = std::make_shared<SendGate>(executor_, head_gate);
    get_gate_ = gate;
    asio::co_spawn(executor_, run_get_stream(gate), asio::detached);
}

asio::awaitable<void> StreamableHttpClient::run_get_stream(std::shared_ptr<SendGate> gate) {
    auto self = shared_from_this();
    std::string last_event_id;
    std::chrono::milliseconds delay = options_.reconnect_delay;
    int failures = 0;
    while (!closed_ && failures <= options_.max_reconnects) {
        EventStream opened = co_await open_event_stream(last_event_id, nullptr);
        if (!opened.connection) break;
        gate->open();
        if (!opened.answered) break;
        if (!opened.is_event_stream()) {
            auto status = opened.exchange->head().result_int();
            // 405: the server offers no GET stream, which is allowed.
            if (options_.log && status != 405) options_.log("GET stream refused with HTTP " + std::to_string(status));
            co_return;
        }
        SseParser parser(max_json_body);
        std::string too_long = co_await opened.exchange->read_events(parser, [&](SseEvent& event) { deliver_event(event); });
        if (!too_long.empty()) {
            if (options_.log) options_.log("dropped the server's GET stream: " + too_long);
            co_return;
        }
        if (!parser.last_event_id().empty()) last_event_id = parser.last_event_id();
        if (parser.retry()) delay = *parser.retry();
        ++failures;
        asio::steady_timer wait(executor_, delay);
        co_await wait.async_wait(use_tuple);
    }
}

/// The session expired: initialize again (the client's own initialize, replayed) and carry on.
asio::awaitable<bool> StreamableHttpClient::reinitialize() {
    auto self = shared_from_this();
    if (initialize_frame_.empty()) co_return false;
    session_id_.clear();
    json::value initialize = json::parse(initialize_frame_);
    initialize.as_object()["id"] = "mcpkit-reinitialize-" + std::to_string(++reinitializations_);
    auto request = make_request(web::verb::post, url_, json::serialize(initialize));
    request.erase("MCP-Protocol-Version");
    auto stream = co_await pool_.acquire(options_.http_timeout);
    if (!stream) co_return false;
    HttpExchange exchange(stream);
    bool started = co_await exchange.start(request, options_.http_timeout);  // alone: see open_legacy_sse_stream
    if (!started || exchange.head().result_int() != 200) co_return false;
    if (auto session = exchange.head().find("Mcp-Session-Id"); session != exchange.head().end())
        session_id_ = std::string(session->value());
    if (is_event_stream_type(exchange.head()[web::field::content_type])) {
        co_await exchange.read_body([](std::string_view) {});
    } else {
        co_await exchange.read_all(max_json_body);
    }
    auto initialized = make_request(web::verb::post, url_, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    if (auto next = co_await pool_.acquire(options_.http_timeout)) {
        HttpExchange notify(next);
        if (co_await notify.start(initialized, options_.http_timeout)) co_await notify.read_all(max_json_body);
    }
    if (options_.log) options_.log("session expired; started a new one");
    get_stream_started_ = false;
    start_get_stream();
    co_return !session_id_.empty();
}

/// HTTP+SSE (2024-11-05): GET the URL for an `endpoint` event, then POST everything there.
asio::awaitable<bool> StreamableHttpClient::start_legacy() {
    auto self = shared_from_this();
    LegacySseHandlers handlers;
    // The stream holds the transport until it ends (close() ends it).
    handlers.on_event = [self](SseEvent& event) { self->deliver_event(event); };
    handlers.on_end = [self] {
        if (self->closed_) return;
        // Without its stream, a legacy session is over.
        if (self->options_.log) self->options_.log("the HTTP+SSE stream ended");
        self->close();
    };
    handlers.log = options_.log;
    legacy_ = co_await open_legacy_sse_stream(pool_, make_request(web::verb::get, url_, ""), url_,
                                              options_.http_timeout, std::move(handlers));
    co_return legacy_.has_value();
}

}  // namespace mcp::http
