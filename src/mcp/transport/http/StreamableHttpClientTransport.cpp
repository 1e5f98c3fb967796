#include "mcp/transport/StreamableHttpClientTransport.hpp"

#include "mcp/jsonrpc/Codec.hpp"
#include "mcp/protocol/Versions.hpp"
#include "transport/http/HttpClientConnection.hpp"
#include "transport/http/LegacySseStream.hpp"
#include "transport/http/OpenRequests.hpp"
#include "transport/http/OutgoingHeaders.hpp"
#include "transport/http/RequestLedger.hpp"
#include "transport/http/SendGate.hpp"
#include "mcp/transport/SseParser.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <deque>

namespace mcp {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace web = boost::beast::http;
namespace json = boost::json;
using http::HttpExchange;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
constexpr std::size_t max_json_body = 64u << 20;
/// How long the sender waits for one POST's response head before sending the next message, so
/// messages reach the server in order without a slow answer holding the others back.
constexpr std::chrono::milliseconds head_gate{250};
/// Authorizations one message may cause before its refusal is final (a server that keeps saying
/// insufficient_scope must not loop us through the authorization server forever).
constexpr int max_authorizations_per_message = 3;

bool is_event_stream(std::string_view content_type) { return content_type.starts_with("text/event-stream"); }

class ClientTransport final : public StreamableHttpClientTransport,
                              public std::enable_shared_from_this<ClientTransport> {
public:
    ClientTransport(asio::any_io_executor executor, StreamableHttpClientOptions options)
        : executor_(executor),
          options_(std::move(options)),
          url_(http::parse_http_url(options_.url)),
          pool_(executor, url_, http::ClientConnectionSettings{options_.ca_file, options_.proxy}),
          reader_wake_(executor, asio::steady_timer::time_point::max()),
          sender_wake_(executor, asio::steady_timer::time_point::max()) {}

    asio::awaitable<jsonrpc::ChannelRead> read() override {
        auto self = shared_from_this();
        while (inbound_.empty() && !closed_) {
            reader_waiting_ = true;
            reader_wake_.expires_at(asio::steady_timer::time_point::max());
            co_await reader_wake_.async_wait(use_tuple);
            reader_waiting_ = false;
        }
        if (inbound_.empty()) co_return jsonrpc::ChannelRead{};
        current_ = std::move(inbound_.front());
        inbound_.pop_front();
        // Decoded once, here: the ledger has read it already and the engine takes it as it is.
        co_return jsonrpc::ChannelRead{jsonrpc::ChannelRead::Kind::decoded, {}, 0, 0, &current_};
    }

    void send(std::string_view frame, jsonrpc::FrameInfo) override {
        if (closed_) return;
        outgoing_.emplace_back(frame);
        if (!sender_running_) {
            sender_running_ = true;
            asio::co_spawn(executor_, run_sender(), asio::detached);
        } else if (sender_waiting_) {
            sender_wake_.cancel();
        }
    }

    void close() override {
        if (closed_) return;
        closed_ = true;
        pool_.close_all();
        if (reader_waiting_) reader_wake_.cancel();
        sender_wake_.cancel();
    }

    asio::any_io_executor executor() const override { return executor_; }
    const std::string& session_id() const override { return session_id_; }
    bool using_legacy_transport() const override { return legacy_.has_value(); }

    asio::awaitable<void> shutdown() override {
        auto self = shared_from_this();
        shutting_down_ = true;
        // What was sent last (a cancellation, typically) goes out before the session ends.
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        while (!closed_ && (!outgoing_.empty() || open_.sends_in_flight() > 0) &&
               std::chrono::steady_clock::now() < deadline) {
            if (open_.sends_in_flight() > 0) {
                co_await open_.sends_finished(std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now()));
            } else {
                asio::steady_timer pause(executor_, std::chrono::milliseconds(5));
                co_await pause.async_wait(use_tuple);
            }
        }
        if (!closed_ && !session_id_.empty() && !legacy_) {
            // Ending the session is a courtesy: a server may refuse it (405) or have forgotten it.
            auto request = make_request(web::verb::delete_, url_, "");
            if (auto stream = co_await pool_.acquire(options_.http_timeout)) {
                HttpExchange exchange(stream);
                co_await exchange.start(request, std::chrono::seconds(5));
            }
        }
        close();
    }

private:
    struct Outgoing {
        std::string frame;
        json::value parsed;
        std::string method;  ///< empty for responses
        std::optional<jsonrpc::RequestId> id;
        bool modern = false;
        int attempts = 0;
        int authorizations = 0;
        std::string authorization;  ///< the Authorization header it was last sent with
    };

    // ---- sending ----

    asio::awaitable<void> run_sender() {
        auto self = shared_from_this();
        while (!closed_) {
            if (outgoing_.empty()) {
                sender_waiting_ = true;
                sender_wake_.expires_at(asio::steady_timer::time_point::max());
                co_await sender_wake_.async_wait(use_tuple);
                sender_waiting_ = false;
                continue;
            }
            if (auto gate = std::exchange(get_gate_, nullptr)) co_await gate->wait();
            if (outgoing_.empty()) continue;
            auto message = prepare(std::move(outgoing_.front()));
            outgoing_.pop_front();
            if (!message) continue;
            co_await send_in_order(std::make_shared<Outgoing>(std::move(*message)));
        }
        sender_running_ = false;
    }

    /// Starts the POST and waits (briefly) for its head, so the next message arrives after it.
    asio::awaitable<void> send_in_order(std::shared_ptr<Outgoing> message) {
        auto gate = std::make_shared<http::SendGate>(executor_, head_gate);
        // A notification or response: shutdown waits for it to be delivered. Counted from here,
        // before the POST's coroutine starts, so no moment passes with it counted nowhere.
        std::shared_ptr<http::OpenRequests::Send> sending;
        if (!message->id) sending = std::make_shared<http::OpenRequests::Send>(open_);
        asio::co_spawn(executor_, post(message, gate, std::move(sending)), asio::detached);
        co_await gate->wait();
    }

    std::optional<Outgoing> prepare(std::string frame) {
        Outgoing message;
        boost::system::error_code ec;
        message.parsed = json::parse(frame, ec);
        if (ec || !message.parsed.is_object()) return std::nullopt;
        message.frame = std::move(frame);
        auto& object = message.parsed.as_object();
        if (auto* method = object.if_contains("method"); method && method->is_string())
            message.method = std::string(method->as_string());
        if (auto* id = object.if_contains("id")) {
            jsonrpc::RequestId parsed_id;
            if (jsonrpc::RequestId::from_json(*id, parsed_id) && !message.method.empty()) {
                message.id = parsed_id;
                ledger_.record(parsed_id, message.method);
            }
        }
        message.modern = http::meta_protocol_version(message.parsed).has_value();
        if (message.method == "initialize") initialize_frame_ = message.frame;
        // A 2026-07-28 request is cancelled by closing its stream; the notification itself has
        // nowhere to go (no session), so it is not sent.
        if (message.method == "notifications/cancelled") {
            const json::value* request_id = nullptr;
            if (auto* params = object.if_contains("params"); params && params->is_object())
                request_id = params->get_object().if_contains("requestId");
            jsonrpc::RequestId cancelled;
            if (request_id && jsonrpc::RequestId::from_json(*request_id, cancelled)) {
                if (open_.cancel(cancelled)) return std::nullopt;
                open_.abandon(cancelled);  // 2025: the notification goes; the request is not sent again
            }
        }
        return message;
    }

    web::request<web::string_body> make_request(web::verb verb, const http::HttpUrl& target, std::string body) const {
        web::request<web::string_body> request{verb, target.target, 11};
        request.set(web::field::host, target.host_header);
        request.set(web::field::user_agent, "mcpkit");
        if (verb == web::verb::post) {
            request.set(web::field::content_type, "application/json");
            request.set(web::field::accept, "application/json, text/event-stream");
        } else if (verb == web::verb::get) {
            request.set(web::field::accept, "text/event-stream");
        }
        if (!session_id_.empty()) request.set("Mcp-Session-Id", session_id_);
        if (!ledger_.negotiated_version().empty()) request.set("MCP-Protocol-Version", ledger_.negotiated_version());
        for (const auto& [name, value] : options_.headers) request.set(name, value);
        if (!authorization_.empty()) request.set(web::field::authorization, authorization_);
        request.body() = std::move(body);
        request.prepare_payload();
        return request;
    }

    /// `sending`: held until the POST is done (see send_in_order); retries run inside this call.
    asio::awaitable<void> post(std::shared_ptr<Outgoing> message, std::shared_ptr<http::SendGate> gate,
                               [[maybe_unused]] std::shared_ptr<http::OpenRequests::Send> sending = nullptr) {
        auto self = shared_from_this();
        auto open_gate = [&] { gate->open(); };
        // The outermost POST of a request (retries run inside it) forgets it was given up, at its end.
        struct Forget {
            http::OpenRequests& open;
            std::optional<jsonrpc::RequestId> id;
            ~Forget() {
                if (id) open.forget(*id);
            }
        } forget{open_, {}};
        if (message->attempts == 0 && message->authorizations == 0) forget.id = message->id;
        if (options_.legacy_only && !legacy_ && !closed_) {
            if (!co_await start_legacy()) {
                open_gate();
                fail(*message, "GET " + options_.url + " gave no HTTP+SSE endpoint event");
                co_return;
            }
        }
        if (options_.authorization) {
            // Kept with the message: a refusal must name the header this request carried.
            message->authorization = co_await options_.authorization->authorization_header();
            authorization_ = message->authorization;
        }
        const http::HttpUrl& target = legacy_ ? *legacy_ : url_;
        auto request = make_request(web::verb::post, target, message->frame);
        if (message->modern) http::add_modern_headers(request, message->parsed, ledger_.tool_headers());
        std::shared_ptr<http::ClientStream> stream;
        std::unique_ptr<HttpExchange> started;
        // Until its answer is in, a 2026-07-28 request is cancelled by closing its connection,
        // also while the head is awaited (a server answering in JSON sends none before the end).
        // Given up before the connection goes back to the pool or the request is sent again.
        std::optional<http::OpenRequests::Registration> open_request;
        bool cancellable = message->modern && message->id;
        // A kept-alive connection the server closed as this was sent: once more, on a new one.
        for (bool reused = true; reused && !started;) {
            stream = co_await pool_.acquire(options_.http_timeout, &reused);
            if (!stream) {
                open_gate();
                fail(*message, pool_.last_error().empty() ? "cannot connect to " + options_.url : pool_.last_error());
                co_return;
            }
            if (cancellable) open_request.emplace(open_, *message->id, stream);
            auto attempt = std::make_unique<HttpExchange>(stream);
            bool got_head = co_await attempt->start(request, options_.http_timeout);
            // Cancelled, or the transport closed (which closes the connections in use): not sent
            // again on a new connection, which would run the request a second time.
            if ((cancellable && open_.given_up(*message->id)) || (closed_ && !got_head)) {
                open_gate();
                co_return;
            }
            if (got_head) started = std::move(attempt);
            else if (!reused || !attempt->closed_unanswered()) break;
        }
        if (!started) {
            open_gate();
            fail(*message, "no answer from " + options_.url);
            co_return;
        }
        HttpExchange& exchange = *started;
        int status = static_cast<int>(exchange.head().result_int());
        std::string content_type(exchange.head()[web::field::content_type]);
        if (auto session = exchange.head().find("Mcp-Session-Id");
            session != exchange.head().end() && message->method == "initialize" && !message->modern)
            session_id_ = std::string(session->value());

        if ((status == 401 || status == 403) && options_.authorization) {
            open_request.reset();  // the connection goes back to the pool during a sign-in
            co_await answer_refusal(exchange, stream, message, status, open_gate);
            co_return;
        }
        // A session the server no longer knows: start a new one, then try again once.
        if (status == 404 && !session_id_.empty() && message->method != "initialize" && !legacy_ &&
            message->attempts == 0) {
            open_request.reset();
            co_await exchange.read_all(max_json_body);
            open_gate();
            // Not when shutting down (our own DELETE ended the session) or when the request was
            // given up: a new session would run it again, with nobody waiting for it.
            if (shutting_down_ || closed_ || (message->id && open_.given_up(*message->id))) co_return;
            message->attempts++;
            if (co_await reinitialize()) co_await post(message, std::make_shared<http::SendGate>(executor_, head_gate));
            else fail(*message, "the session expired and a new one could not be started");
            co_return;
        }
        // A 2024-11-05 server: initialize is refused on the single endpoint.
        if (message->method == "initialize" && !message->modern && !legacy_ && options_.legacy_fallback &&
            (status == 400 || status == 404 || status == 405)) {
            auto refusal = co_await exchange.read_all(max_json_body);
            std::string reason(exchange.head().reason());
            open_gate();
            if (co_await start_legacy()) {
                co_await post(message, std::make_shared<http::SendGate>(executor_, head_gate));
            } else {
                fail(*message, "the server refused initialize with " + http::describe_status(status, reason, refusal) +
                                   ", and offers no HTTP+SSE endpoint either");
            }
            co_return;
        }
        if (message->method == "notifications/initialized" && status >= 200 && status < 300 && !legacy_)
            start_get_stream();  // before the gate opens, so the sender waits for the GET's head too
        open_gate();
        if (is_event_stream(content_type) && status == 200) {
            co_await read_events(exchange, message->id);
            co_return;
        }
        auto body = co_await exchange.read_all(max_json_body);
        std::string reason(exchange.head().reason());
        open_request.reset();  // answered: the connection may serve another request now
        if (exchange.reusable()) pool_.release(stream);
        if (body && !body->empty() && (body->front() == '{' || body->front() == '[')) {
            deliver(*body);
            if (status >= 400 && message->id && !answered(*message->id))
                fail(*message, http::describe_status(status, reason, body));
            co_return;
        }
        // A refusal's body is often the only explanation (a proxy's, or Playwright's "Access is
        // only allowed at localhost:8931"): it goes into the error, not away.
        if (status >= 300 && message->id) fail(*message, http::describe_status(status, reason, body));
    }

    /// A 401 or 403: authorize (once per refusal, a bounded number of times per message), then send
    /// the message again; or fail it, saying why.
    template <typename OpenGate>
    asio::awaitable<void> answer_refusal(HttpExchange& exchange, std::shared_ptr<http::ClientStream> stream,
                                         std::shared_ptr<Outgoing> message, int status, OpenGate& open_gate) {
        HttpChallenge challenge{status, std::string(exchange.head()[web::field::www_authenticate]), options_.url,
                                message->authorization};
        std::string reason(exchange.head().reason());
        auto body = co_await exchange.read_all(max_json_body);
        if (exchange.reusable()) pool_.release(stream);
        open_gate();
        std::string failure;
        if (message->authorizations < max_authorizations_per_message) {
            message->authorizations++;
            bool again = false;
            try {
                again = co_await options_.authorization->answer_challenge(std::move(challenge));
            } catch (const std::exception& e) {
                failure = std::string("authorization failed: ") + e.what();
            }
            if (again && !closed_ && !(message->id && open_.given_up(*message->id))) {
                co_await post(message, std::make_shared<http::SendGate>(executor_, head_gate));
                co_return;
            }
        } else {
            failure = "still refused after " + std::to_string(max_authorizations_per_message) +
                      " authorizations: " + http::describe_status(status, reason, body);
        }
        if (failure.empty()) failure = http::describe_status(status, reason, body);
        if (options_.log) options_.log(failure);
        if (message->id) fail(*message, failure);
    }

    /// Reads one SSE stream to its end, resuming it with GET + Last-Event-ID while `waiting_for`
    /// (our request) has no answer yet.
    asio::awaitable<void> read_events(HttpExchange& exchange, std::optional<jsonrpc::RequestId> waiting_for) {
        auto self = shared_from_this();
        SseParser parser;
        auto origin = related_origin(waiting_for);
        co_await exchange.read_events(parser, [&](SseEvent& event) { deliver_event(event, origin); });
        if (!waiting_for || answered(*waiting_for) || closed_ || parser.last_event_id().empty() || legacy_ ||
            open_.given_up(*waiting_for))
            co_return;
        co_await resume(parser.last_event_id(), parser.retry(), *waiting_for);
    }

    asio::awaitable<void> resume(std::string last_event_id, std::optional<std::chrono::milliseconds> retry,
                                 jsonrpc::RequestId waiting_for) {
        auto self = shared_from_this();
        auto delay = retry.value_or(options_.reconnect_delay);
        for (int attempt = 0; attempt < options_.max_reconnects && !closed_ && !answered(waiting_for) &&
                              !open_.given_up(waiting_for);
             ++attempt) {
            asio::steady_timer wait(executor_, delay);
            co_await wait.async_wait(use_tuple);
            if (closed_ || answered(waiting_for) || open_.given_up(waiting_for)) co_return;
            auto request = make_request(web::verb::get, url_, "");
            request.set("Last-Event-ID", last_event_id);
            auto stream = co_await pool_.acquire(options_.http_timeout);
            // A cancellation while resuming closes the stream being resumed, not the old one.
            std::optional<http::OpenRequests::Registration> resumed;
            if (stream && open_.tracks(waiting_for)) resumed.emplace(open_, waiting_for, stream);
            if (stream) {
                HttpExchange exchange(stream);
                bool started = co_await exchange.start(request, options_.http_timeout);
                if (started && exchange.head().result_int() == 200 &&
                    is_event_stream(std::string(exchange.head()[web::field::content_type]))) {
                    SseParser parser;
                    auto origin = related_origin(waiting_for);
                    co_await exchange.read_events(parser, [&](SseEvent& event) {
                        deliver_event(event, origin);
                        // Done with this stream once the answer is in; the server may keep it open.
                        if (answered(waiting_for)) {
                            boost::system::error_code ignored;
                            stream->lowest().socket().close(ignored);
                        }
                    });
                    if (!parser.last_event_id().empty()) last_event_id = parser.last_event_id();
                    if (parser.retry()) delay = *parser.retry();
                    attempt = -1;  // progress was made: the count starts again
                    continue;
                }
                if (options_.log)
                    options_.log(started ? "resuming the stream got HTTP " + std::to_string(exchange.head().result_int())
                                         : std::string("resuming the stream failed: no answer"));
            }
            delay = std::chrono::duration_cast<std::chrono::milliseconds>(delay * 3 / 2);
        }
        if (!answered(waiting_for) && !closed_ && !open_.given_up(waiting_for)) {
            if (options_.log) options_.log("stream for request " + waiting_for.to_display() + " was lost");
            fail_id(waiting_for, "the server's stream ended without an answer and could not be resumed");
        }
    }

    void start_get_stream() {
        if (!options_.open_get_stream || get_stream_started_ || session_id_.empty()) return;
        get_stream_started_ = true;
        // Hold the sender until the GET is answered: a server may send its requests only there.
        auto gate = std::make_shared<http::SendGate>(executor_, head_gate);
        get_gate_ = gate;
        asio::co_spawn(executor_, run_get_stream(gate), asio::detached);
    }

    asio::awaitable<void> run_get_stream(std::shared_ptr<http::SendGate> gate) {
        auto self = shared_from_this();
        std::string last_event_id;
        std::chrono::milliseconds delay = options_.reconnect_delay;
        int failures = 0;
        while (!closed_ && failures <= options_.max_reconnects) {
            auto request = make_request(web::verb::get, url_, "");
            if (!last_event_id.empty()) request.set("Last-Event-ID", last_event_id);
            auto stream = co_await pool_.acquire(options_.http_timeout);
            if (!stream) break;
            HttpExchange exchange(stream);
            bool started = co_await exchange.start(request, options_.http_timeout);
            gate->open();
            if (!started) break;
            auto status = exchange.head().result_int();
            if (status != 200 || !is_event_stream(std::string(exchange.head()[web::field::content_type]))) {
                // 405: the server offers no GET stream, which is allowed.
                if (options_.log && status != 405) options_.log("GET stream refused with HTTP " + std::to_string(status));
                co_return;
            }
            SseParser parser;
            co_await exchange.read_events(parser, [&](SseEvent& event) { deliver_event(event); });
            if (!parser.last_event_id().empty()) last_event_id = parser.last_event_id();
            if (parser.retry()) delay = *parser.retry();
            ++failures;
            asio::steady_timer wait(executor_, delay);
            co_await wait.async_wait(use_tuple);
        }
    }

    /// The session expired: initialize again (the client's own initialize, replayed) and carry on.
    asio::awaitable<bool> reinitialize() {
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
        if (is_event_stream(std::string(exchange.head()[web::field::content_type]))) {
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
    asio::awaitable<bool> start_legacy() {
        auto self = shared_from_this();
        http::LegacySseHandlers handlers;
        // The stream holds the transport until it ends (close() ends it).
        handlers.on_event = [self](SseEvent& event) { self->deliver_event(event); };
        handlers.on_end = [self] {
            if (self->closed_) return;
            // Without its stream, a legacy session is over.
            if (self->options_.log) self->options_.log("the HTTP+SSE stream ended");
            self->close();
        };
        handlers.log = options_.log;
        legacy_ = co_await http::open_legacy_sse_stream(pool_, make_request(web::verb::get, url_, ""), url_,
                                                       options_.http_timeout, std::move(handlers));
        co_return legacy_.has_value();
    }

    // ---- receiving ----

    /// `origin`: the stream it came on answers that request of ours (the server's requests there,
    /// sampling during a tool call, are made on its behalf).
    void deliver(std::string_view frame, std::shared_ptr<const jsonrpc::MessageOrigin> origin = nullptr) {
        if (closed_) return;
        jsonrpc::Decoded decoded = decoder_.decode(frame);
        ledger_.note(decoded);
        decoded.origin = std::move(origin);
        inbound_.push_back(std::move(decoded));
        if (reader_waiting_) reader_wake_.cancel();
    }

    void deliver_event(const SseEvent& event,
                       const std::shared_ptr<const jsonrpc::MessageOrigin>& origin = nullptr) {
        // Events without data are priming or keep-alive; other types are not MCP messages.
        if (event.type == "message" && !event.data.empty()) deliver(event.data, origin);
    }

    static std::shared_ptr<const jsonrpc::MessageOrigin> related_origin(const std::optional<jsonrpc::RequestId>& id) {
        if (!id) return nullptr;
        return std::make_shared<jsonrpc::RelatedRequestOrigin>(*id);
    }

    bool answered(const jsonrpc::RequestId& id) const { return ledger_.answered(id); }

    void fail(const Outgoing& message, const std::string& reason) {
        if (message.id) fail_id(*message.id, reason);
    }

    void fail_id(const jsonrpc::RequestId& id, const std::string& reason) {
        if (answered(id)) return;
        std::string frame;
        jsonrpc::encode_error(frame, id, jsonrpc::ErrorObject{-32000, "Transport error: " + reason, nullptr});
        deliver(frame);
    }

    asio::any_io_executor executor_;
    StreamableHttpClientOptions options_;
    http::HttpUrl url_;
    http::ConnectionPool pool_;
    std::optional<http::HttpUrl> legacy_;
    jsonrpc::Decoder decoder_;
    http::RequestLedger ledger_;
    std::deque<jsonrpc::Decoded> inbound_;
    jsonrpc::Decoded current_;
    asio::steady_timer reader_wake_;
    bool reader_waiting_ = false;
    std::deque<std::string> outgoing_;
    http::OpenRequests open_{executor_};
    asio::steady_timer sender_wake_;
    bool sender_running_ = false;
    bool sender_waiting_ = false;
    std::shared_ptr<http::SendGate> get_gate_;
    bool closed_ = false;
    bool shutting_down_ = false;  ///< shutdown() began: nothing is sent again in a new session
    std::string session_id_;
    std::string authorization_;  ///< the newest Authorization header (GET streams, DELETE use it)
    std::string initialize_frame_;
    int reinitializations_ = 0;
    bool get_stream_started_ = false;
};

}  // namespace

std::shared_ptr<StreamableHttpClientTransport> StreamableHttpClientTransport::create(
    asio::any_io_executor executor, StreamableHttpClientOptions options) {
    return std::make_shared<ClientTransport>(std::move(executor), std::move(options));
}

}  // namespace mcp
