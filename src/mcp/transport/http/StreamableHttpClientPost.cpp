#include "transport/http/StreamableHttpClient.hpp"

#include "transport/http/OutgoingHeaders.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/json/parse.hpp>

namespace mcp::http {
namespace asio = boost::asio;
namespace web = boost::beast::http;
namespace json = boost::json;

asio::awaitable<void> StreamableHttpClient::run_sender() {
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
asio::awaitable<void> StreamableHttpClient::send_in_order(std::shared_ptr<Outgoing> message) {
    auto gate = std::make_shared<SendGate>(executor_, head_gate);
    // A notification or response: shutdown waits for it to be delivered. Counted from here,
    // before the POST's coroutine starts, so no moment passes with it counted nowhere.
    std::shared_ptr<OpenRequests::Send> sending;
    if (!message->id) sending = std::make_shared<OpenRequests::Send>(open_);
    asio::co_spawn(executor_, post(message, gate, std::move(sending)), asio::detached);
    co_await gate->wait();
}

std::optional<StreamableHttpClient::Outgoing> StreamableHttpClient::prepare(std::string frame) {
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
    message.modern = meta_protocol_version(message.parsed).has_value();
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

StreamableHttpClient::Request StreamableHttpClient::make_request(web::verb verb, const HttpUrl& target,
                                                                std::string body) const {
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
asio::awaitable<void> StreamableHttpClient::post(std::shared_ptr<Outgoing> message, std::shared_ptr<SendGate> gate,
                                                [[maybe_unused]] std::shared_ptr<OpenRequests::Send> sending) {
    auto self = shared_from_this();
    // The outermost POST of a request (retries run inside it) forgets it was given up, at its end.
    struct Forget {
        OpenRequests& open;
        std::optional<jsonrpc::RequestId> id;
        ~Forget() {
            if (id) open.forget(*id);
        }
    } forget{open_, {}};
    if (message->attempts == 0 && message->authorizations == 0) forget.id = message->id;
    if (options_.legacy_only && !legacy_ && !closed_) {
        if (!co_await start_legacy()) {
            gate->open();
            fail(*message, "GET " + options_.url + " gave no HTTP+SSE endpoint event");
            co_return;
        }
    }
    if (options_.authorization) {
        // Kept with the message: a refusal must name the header this request carried.
        message->authorization = co_await options_.authorization->authorization_header();
        authorization_ = message->authorization;
    }
    const HttpUrl& target = legacy_ ? *legacy_ : url_;
    auto request = make_request(web::verb::post, target, message->frame);
    if (message->modern) add_modern_headers(request, message->parsed, ledger_.tool_headers());
    std::shared_ptr<ClientStream> stream;
    std::unique_ptr<HttpExchange> started;
    // Until its answer is in, a 2026-07-28 request is cancelled by closing its connection,
    // also while the head is awaited (a server answering in JSON sends none before the end).
    // Given up before the connection goes back to the pool or the request is sent again.
    std::optional<OpenRequests::Registration> open_request;
    bool cancellable = message->modern && message->id;
    // A kept-alive connection the server closed as this was sent: once more, on a new one.
    for (bool reused = true; reused && !started;) {
        stream = co_await pool_.acquire(options_.http_timeout, &reused);
        if (!stream) {
            gate->open();
            fail(*message, pool_.last_error().empty() ? "cannot connect to " + options_.url : pool_.last_error());
            co_return;
        }
        if (cancellable) open_request.emplace(open_, *message->id, stream);
        auto attempt = std::make_unique<HttpExchange>(stream);
        bool got_head = co_await attempt->start(request, options_.http_timeout);
        // Cancelled, or the transport closed (which closes the connections in use): not sent
        // again on a new connection, which would run the request a second time.
        if ((cancellable && open_.given_up(*message->id)) || (closed_ && !got_head)) {
            gate->open();
            co_return;
        }
        if (got_head) started = std::move(attempt);
        else if (!reused || !attempt->closed_unanswered()) break;
    }
    if (!started) {
        gate->open();
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
        co_await answer_refusal(exchange, stream, message, status, gate);
        co_return;
    }
    // A session the server no longer knows: start a new one, then try again once.
    if (status == 404 && !session_id_.empty() && message->method != "initialize" && !legacy_ &&
        message->attempts == 0) {
        open_request.reset();
        co_await exchange.read_all(max_json_body);
        gate->open();
        // Not when shutting down (our own DELETE ended the session) or when the request was
        // given up: a new session would run it again, with nobody waiting for it.
        if (shutting_down_ || closed_ || (message->id && open_.given_up(*message->id))) co_return;
        message->attempts++;
        if (co_await reinitialize()) co_await post(message, std::make_shared<SendGate>(executor_, head_gate));
        else fail(*message, "the session expired and a new one could not be started");
        co_return;
    }
    // A 2024-11-05 server: initialize is refused on the single endpoint.
    if (message->method == "initialize" && !message->modern && !legacy_ && options_.legacy_fallback &&
        (status == 400 || status == 404 || status == 405)) {
        auto refusal = co_await exchange.read_all(max_json_body);
        std::string reason(exchange.head().reason());
        gate->open();
        if (co_await start_legacy()) {
            co_await post(message, std::make_shared<SendGate>(executor_, head_gate));
        } else {
            fail(*message, "the server refused initialize with " + describe_status(status, reason, refusal) +
                               ", and offers no HTTP+SSE endpoint either");
        }
        co_return;
    }
    if (message->method == "notifications/initialized" && status >= 200 && status < 300 && !legacy_)
        start_get_stream();  // before the gate opens, so the sender waits for the GET's head too
    gate->open();
    if (is_event_stream_type(content_type) && status == 200) {
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
            fail(*message, describe_status(status, reason, body));
        co_return;
    }
    // A refusal's body is often the only explanation (a proxy's, or Playwright's "Access is
    // only allowed at localhost:8931"): it goes into the error, not away.
    if (status >= 300 && message->id) fail(*message, describe_status(status, reason, body));
}

/// A 401 or 403: authorize (once per refusal, a bounded number of times per message), then send
/// the message again; or fail it, saying why.
asio::awaitable<void> StreamableHttpClient::answer_refusal(HttpExchange& exchange, std::shared_ptr<ClientStream> stream,
                                                          std::shared_ptr<Outgoing> message, int status,
                                                          std::shared_ptr<SendGate> gate) {
    HttpChallenge challenge{status, std::string(exchange.head()[web::field::www_authenticate]), options_.url,
                            message->authorization};
    std::string reason(exchange.head().reason());
    auto body = co_await exchange.read_all(max_json_body);
    if (exchange.reusable()) pool_.release(stream);
    gate->open();
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
            co_await post(message, std::make_shared<SendGate>(executor_, head_gate));
            co_return;
        }
    } else {
        failure = "still refused after " + std::to_string(max_authorizations_per_message) +
                  " authorizations: " + describe_status(status, reason, body);
    }
    if (failure.empty()) failure = describe_status(status, reason, body);
    if (options_.log) options_.log(failure);
    if (message->id) fail(*message, failure);
}

}  // namespace mcp::http
