#include "transport/http/HttpClientConnection.hpp"

#include "transport/http/TlsClient.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <array>
#include <cerrno>
#include <stdexcept>

#include <sys/socket.h>

namespace mcp::http {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace web = boost::beast::http;
using tcp = asio::ip::tcp;

namespace {
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

/// Calls `on_silence` once nothing was heard for `limit`. One timer for a whole body, moved on
/// lazily: a read only notes the time, and the timer, when it wakes before the silence is long
/// enough, sleeps the rest. A streamed answer so costs no timer operation per read.
class SilenceWatchdog {
public:
    SilenceWatchdog(const asio::any_io_executor& executor, std::chrono::milliseconds limit,
                    std::function<void()> on_silence)
        : state_(std::make_shared<State>(State{asio::steady_timer(executor), std::chrono::steady_clock::now(), limit,
                                               std::move(on_silence), false})) {
        arm(state_, state_->heard + limit);
    }
    ~SilenceWatchdog() {
        state_->over = true;  // a wake-up already queued finds it so
        state_->timer.cancel();
    }
    SilenceWatchdog(const SilenceWatchdog&) = delete;
    SilenceWatchdog& operator=(const SilenceWatchdog&) = delete;

    void heard() { state_->heard = std::chrono::steady_clock::now(); }

private:
    struct State {
        asio::steady_timer timer;
        std::chrono::steady_clock::time_point heard;
        std::chrono::milliseconds limit;
        std::function<void()> on_silence;
        bool over;
    };
    static void arm(const std::shared_ptr<State>& state, std::chrono::steady_clock::time_point at) {
        state->timer.expires_at(at);
        state->timer.async_wait([state](const boost::system::error_code& ec) {
            if (ec || state->over) return;
            auto due = state->heard + state->limit;
            if (std::chrono::steady_clock::now() < due) return arm(state, due);
            state->over = true;
            state->on_silence();
        });
    }
    std::shared_ptr<State> state_;
};

/// The request's head as it goes on the wire. Written by hand, with the body in the same gathered
/// write: Beast's serializer walks a message through layers of buffer views, about 20,000
/// instructions a request, which showed in a chat host's profile (two model requests a turn).
std::string request_head(const web::request<web::string_body>& request) {
    std::string head;
    head.reserve(512);
    head.append(request.method_string()).append(" ").append(request.target());
    head.append(request.version() == 10 ? " HTTP/1.0\r\n" : " HTTP/1.1\r\n");
    for (const auto& field : request) head.append(field.name_string()).append(": ").append(field.value()).append("\r\n");
    head.append("\r\n");
    return head;
}

/// Whether a kept-alive connection can carry another request: nothing has come in since its last
/// answer, not even the end. A server closes idle connections on its own clock (Node after 5 s,
/// gunicorn after 2), and a request sent on one it has closed gets no answer.
bool still_open_and_quiet(tcp::socket& socket) {
    if (!socket.is_open()) return false;
    char byte;
    ssize_t got = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

HttpUrl from_url_view(const boost::urls::url_view& url) {
    HttpUrl result;
    result.tls = url.scheme() == "https";
    result.host = std::string(url.host_address());
    result.port = url.has_port() ? std::string(url.port()) : result.tls ? "443" : "80";
    result.target = std::string(url.encoded_path());
    if (result.target.empty()) result.target = "/";
    if (url.has_query()) result.target += "?" + std::string(url.encoded_query());
    result.host_header = std::string(url.encoded_host_and_port());
    return result;
}
}  // namespace

HttpUrl parse_http_url(std::string_view text) {
    auto parsed = boost::urls::parse_absolute_uri(text);
    if (!parsed) throw std::invalid_argument("\"" + std::string(text) + "\" is not a URL (e.g. http://127.0.0.1:3000/mcp)");
    if (parsed->scheme() != "http" && parsed->scheme() != "https")
        throw std::invalid_argument("URL scheme must be http or https, got \"" + std::string(parsed->scheme()) + "\"");
    if (parsed->host_address().empty()) throw std::invalid_argument("URL \"" + std::string(text) + "\" has no host");
    return from_url_view(*parsed);
}

std::optional<HttpUrl> resolve_same_origin(const HttpUrl& base, std::string_view reference) {
    std::string scheme = base.tls ? "https" : "http";
    std::string base_text = scheme + "://" + base.host_header + base.target;  // the view below points into it
    auto base_parsed = boost::urls::parse_absolute_uri(base_text);
    if (!base_parsed) return std::nullopt;
    boost::urls::url_view base_url = *base_parsed;
    auto ref = boost::urls::parse_uri_reference(reference);
    if (!ref) return std::nullopt;
    boost::urls::url resolved;
    if (!boost::urls::resolve(base_url, *ref, resolved)) return std::nullopt;
    if (resolved.scheme() != scheme || resolved.encoded_host_and_port() != base_url.encoded_host_and_port())
        return std::nullopt;
    return from_url_view(resolved);
}

std::string describe_status(int status, std::string_view reason, const std::optional<std::string>& body) {
    std::string text = "HTTP " + std::to_string(status);
    if (!reason.empty()) text.append(" ").append(reason);
    if (!body) return text;
    std::string said;
    for (char c : *body) {
        if (said.size() >= 300) {
            said += "…";
            break;
        }
        bool space = c == '\n' || c == '\r' || c == '\t';
        if (space && !said.empty() && said.back() != ' ') said += ' ';
        else if (!space && static_cast<unsigned char>(c) >= 0x20) said += c;
    }
    while (!said.empty() && said.back() == ' ') said.pop_back();
    if (!said.empty()) text.append(": ").append(said);
    return text;
}

HttpExchange::HttpExchange(std::shared_ptr<ClientStream> stream) : stream_(std::move(stream)) {
    parser_.body_limit(boost::none);
    // Beast reads as much as the buffer has room for, and an empty one only 512 bytes: a streamed
    // answer then costs a system call per 512 bytes.
    buffer_.reserve(16384);
}

asio::awaitable<bool> HttpExchange::start(web::request<web::string_body>& request, std::chrono::milliseconds timeout) {
    stream_->lowest().expires_after(timeout);
    std::string head = request_head(request);
    std::array<asio::const_buffer, 2> buffers{asio::buffer(head), asio::buffer(request.body())};
    auto [write_error, written] =
        co_await stream_->with([&](auto& stream) { return asio::async_write(stream, buffers, use_tuple); });
    auto closed = [](const boost::system::error_code& error) {
        return error == asio::error::eof || error == asio::error::connection_reset ||
               error == asio::error::broken_pipe || error == web::error::end_of_stream ||
               error == asio::ssl::error::stream_truncated;  // https: closed without close_notify
    };
    if (write_error) {
        closed_unanswered_ = closed(write_error);
        co_return false;
    }
    auto [read_error, read] = co_await stream_->with(
        [&](auto& stream) { return web::async_read_header(stream, buffer_, parser_, use_tuple); });
    stream_->lowest().expires_never();
    if (read_error) {
        closed_unanswered_ = closed(read_error) && read == 0 && buffer_.size() == 0;
        co_return false;
    }
    done_ = parser_.is_done();
    co_return true;
}

asio::awaitable<bool> HttpExchange::read_body(const std::function<void(std::string_view)>& on_data) {
    char chunk[16384];
    std::optional<SilenceWatchdog> watchdog;
    if (silence_limit_.count() > 0)
        watchdog.emplace(stream_->lowest().get_executor(), silence_limit_, [this, stream = stream_] {
            went_silent_ = true;  // `this` is alive: the watchdog dies with this read, before it
            stream->lowest().cancel();
        });
    while (!parser_.is_done()) {
        // What the buffer already holds is parsed first, all of it: the chunks of a streamed answer
        // that came in one read are handed over in one go (one tick), not one read operation each.
        // (Beast's eager parsing would do it too, but would then wait for more bytes before
        // handing over an event that ends the buffer, stalling a quiet stream.)
        while (buffer_.size() > 0 && !parser_.is_done()) {
            parser_.get().body().data = chunk;
            parser_.get().body().size = sizeof chunk;
            boost::system::error_code ec;
            std::size_t used = parser_.put(buffer_.data(), ec);
            buffer_.consume(used);
            if (ec == web::error::need_buffer) ec = {};
            std::size_t got = sizeof chunk - parser_.get().body().size;
            if (got > 0) on_data(std::string_view(chunk, got));
            if (ec && ec != web::error::need_more) co_return false;
            if (ec == web::error::need_more || (used == 0 && got == 0)) break;
        }
        if (parser_.is_done()) break;
        parser_.get().body().data = chunk;
        parser_.get().body().size = sizeof chunk;
        auto [ec, n] = co_await stream_->with(
            [&](auto& stream) { return web::async_read_some(stream, buffer_, parser_, use_tuple); });
        // The limit may have run out as this read completed (nothing left to cancel): silent it is,
        // or the rest of the body would be read with no watchdog.
        if (went_silent_) co_return false;
        if (watchdog) watchdog->heard();
        if (ec == web::error::need_buffer) ec = {};
        std::size_t got = sizeof chunk - parser_.get().body().size;
        if (got > 0) on_data(std::string_view(chunk, got));
        if (ec) co_return false;
    }
    done_ = true;
    co_return true;
}

asio::awaitable<std::string> HttpExchange::read_events(SseParser& parser, const std::function<void(SseEvent&)>& on_event) {
    std::string refused;
    try {
        co_await read_body([&](std::string_view bytes) { parser.feed(bytes, on_event); });
    } catch (const std::length_error& error) {
        refused = error.what();
    }
    co_return refused;
}

asio::awaitable<std::optional<std::string>> HttpExchange::read_all(std::size_t limit) {
    std::string body;
    bool too_big = false;
    bool ok = co_await read_body([&](std::string_view piece) {
        if (body.size() + piece.size() > limit) too_big = true;
        if (!too_big) body.append(piece);
    });
    if (!ok || too_big) co_return std::nullopt;
    co_return body;
}

ConnectionPool::ConnectionPool(asio::any_io_executor executor, HttpUrl url, const ClientConnectionSettings& settings)
    : executor_(std::move(executor)),
      url_(std::move(url)),
      proxy_(proxy_for(url_, settings.proxy)),
      allow_address_(settings.allow_address) {
    if (url_.tls) tls_ = make_client_tls_context(settings.ca_file);
}

asio::awaitable<std::shared_ptr<ClientStream>> ConnectionPool::acquire(std::chrono::milliseconds timeout,
                                                                        bool* reused) {
    while (!idle_.empty()) {
        auto stream = std::move(idle_.back());
        idle_.pop_back();
        if (still_open_and_quiet(stream->lowest().socket())) {
            if (reused) *reused = true;
            co_return stream;
        }
    }
    if (reused) *reused = false;
    auto stream = co_await connect(timeout);
    if (stream) {
        std::erase_if(all_, [](const auto& weak) { return weak.expired(); });
        all_.push_back(stream);
    }
    co_return stream;
}

asio::awaitable<std::shared_ptr<ClientStream>> ConnectionPool::connect(std::chrono::milliseconds timeout) {
    const std::string& host = proxy_ ? proxy_->host : url_.host;
    const std::string& port = proxy_ ? proxy_->port : url_.port;
    const std::string where = proxy_ ? "the proxy " + proxy_->display : host + ":" + port;
    if (endpoints_.empty()) {
        // Every address of the name: "localhost" may mean ::1 or 127.0.0.1, and the server may
        // listen on only one of them.
        tcp::resolver resolver(executor_);
        auto [ec, results] = co_await resolver.async_resolve(host, port, use_tuple);
        if (ec) {
            last_error_ = "cannot resolve " + host + ": " + ec.message();
            co_return nullptr;
        }
        std::size_t refused = 0;
        for (const auto& entry : results) {
            if (allow_address_ && !allow_address_(entry.endpoint().address())) {
                ++refused;
                continue;
            }
            endpoints_.push_back(entry.endpoint());
        }
        if (endpoints_.empty()) {
            last_error_ = refused ? "refused to connect to " + host + ": it resolves to " +
                                        results.begin()->endpoint().address().to_string() + ", an address not allowed here"
                                  : "cannot resolve " + host + ": no address";
            co_return nullptr;
        }
    }
    std::optional<ClientStream::Plain> connected;
    for (const auto& endpoint : endpoints_) {
        ClientStream::Plain tcp_stream(executor_);
        tcp_stream.expires_after(timeout);
        auto [ec] = co_await tcp_stream.async_connect(endpoint, use_tuple);
        tcp_stream.expires_never();
        if (ec) {
            last_error_ = "cannot connect to " + where + ": " + ec.message();
            continue;
        }
        boost::system::error_code ignored;
        tcp_stream.socket().set_option(tcp::no_delay(true), ignored);
        connected.emplace(std::move(tcp_stream));
        break;
    }
    if (!connected) co_return nullptr;
    if (proxy_ && !co_await open_tunnel(*connected, url_, *proxy_, timeout, last_error_)) co_return nullptr;
    if (!url_.tls) co_return std::make_shared<ClientStream>(std::move(*connected));
    std::string tls_error;
    auto secure = co_await tls_handshake(std::move(*connected), *tls_, url_.host, timeout, tls_error);
    if (!secure) {
        last_error_ = "https://" + url_.host_header + ": " + tls_error;
        co_return nullptr;
    }
    co_return std::make_shared<ClientStream>(std::move(*secure));
}

void ConnectionPool::release(std::shared_ptr<ClientStream> stream) {
    if (stream && stream->lowest().socket().is_open() && idle_.size() < 8) idle_.push_back(std::move(stream));
}

void ConnectionPool::close_all() {
    idle_.clear();
    for (auto& weak : all_)
        if (auto stream = weak.lock()) {
            boost::system::error_code ignored;
            stream->lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
            stream->lowest().socket().close(ignored);
        }
    all_.clear();
}

}  // namespace mcp::http
