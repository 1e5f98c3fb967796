#include "transport/http/StreamableHttpClient.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/beast/http/verb.hpp>

namespace mcp {

std::shared_ptr<StreamableHttpClientTransport> StreamableHttpClientTransport::create(
    boost::asio::any_io_executor executor, StreamableHttpClientOptions options) {
    return std::make_shared<http::StreamableHttpClient>(std::move(executor), std::move(options));
}

}  // namespace mcp

namespace mcp::http {
namespace asio = boost::asio;
namespace web = boost::beast::http;

StreamableHttpClient::StreamableHttpClient(asio::any_io_executor executor, StreamableHttpClientOptions options)
    : executor_(executor),
      options_(std::move(options)),
      url_(parse_http_url(options_.url)),
      pool_(executor, url_, ClientConnectionSettings{options_.ca_file, options_.proxy, {}}),
      reader_wake_(executor, asio::steady_timer::time_point::max()),
      sender_wake_(executor, asio::steady_timer::time_point::max()) {}

asio::awaitable<jsonrpc::ChannelRead> StreamableHttpClient::read() {
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

void StreamableHttpClient::send(std::string_view frame, jsonrpc::FrameInfo) {
    if (closed_) return;
    outgoing_.emplace_back(frame);
    if (!sender_running_) {
        sender_running_ = true;
        asio::co_spawn(executor_, run_sender(), asio::detached);
    } else if (sender_waiting_) {
        sender_wake_.cancel();
    }
}

void StreamableHttpClient::close() {
    if (closed_) return;
    closed_ = true;
    pool_.close_all();
    if (reader_waiting_) reader_wake_.cancel();
    sender_wake_.cancel();
}

asio::awaitable<void> StreamableHttpClient::shutdown() {
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

/// `origin`: the stream it came on answers that request of ours (the server's requests there,
/// sampling during a tool call, are made on its behalf).
void StreamableHttpClient::deliver(std::string_view frame, std::shared_ptr<const jsonrpc::MessageOrigin> origin) {
    if (closed_) return;
    jsonrpc::Decoded decoded = decoder_.decode(frame);
    ledger_.note(decoded);
    decoded.origin = std::move(origin);
    inbound_.push_back(std::move(decoded));
    if (reader_waiting_) reader_wake_.cancel();
}

void StreamableHttpClient::deliver_event(const SseEvent& event,
                                         const std::shared_ptr<const jsonrpc::MessageOrigin>& origin) {
    // Events without data are priming or keep-alive; other types are not MCP messages.
    if (event.type == "message" && !event.data.empty()) deliver(event.data, origin);
}

std::shared_ptr<const jsonrpc::MessageOrigin> StreamableHttpClient::related_origin(
    const std::optional<jsonrpc::RequestId>& id) {
    if (!id) return nullptr;
    return std::make_shared<jsonrpc::RelatedRequestOrigin>(*id);
}

void StreamableHttpClient::fail(const Outgoing& message, const std::string& reason) {
    if (message.id) fail_id(*message.id, reason);
}

void StreamableHttpClient::fail_id(const jsonrpc::RequestId& id, const std::string& reason) {
    if (answered(id)) return;
    std::string frame;
    jsonrpc::encode_error(frame, id, jsonrpc::ErrorObject{-32000, "Transport error: " + reason, nullptr});
    deliver(frame);
}

}  // namespace mcp::http
