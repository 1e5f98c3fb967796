#include "transport/http/HttpConnection.hpp"

#include "mcp/jsonrpc/ErrorCodes.hpp"
#include "mcp/protocol/Versions.hpp"
#include "transport/http/HttpErrors.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <sys/socket.h>

namespace mcp::http {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace web = boost::beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
/// How long a request may take before the connection starts watching for the client leaving.
constexpr std::chrono::milliseconds quick_answer{20};

using Request = web::request<web::string_body>;

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_case_insensitive(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

/// `needle` is lowercase.
bool contains_case_insensitive(std::string_view haystack, std::string_view needle) {
    if (haystack.find(needle) != std::string_view::npos) return true;  // the usual spelling
    bool has_letters = std::any_of(needle.begin(), needle.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (!has_letters || needle.size() > haystack.size()) return false;
    for (std::size_t start = 0; start + needle.size() <= haystack.size(); ++start)
        if (equals_case_insensitive(haystack.substr(start, needle.size()), needle)) return true;
    return false;
}

/// The headers the endpoint reads, found in one pass over the request (a lookup per name would
/// compare names case-insensitively over and over). The first of repeated headers wins.
struct IncomingHeaders {
    std::optional<std::string_view> host, origin, content_type, accept;
    std::optional<std::string_view> session_id, protocol_version, last_event_id, mcp_method, mcp_name;
    std::vector<std::pair<std::string_view, std::string_view>> parameters;  ///< Mcp-Param-<name>
};

IncomingHeaders read_headers(const Request& request) {
    IncomingHeaders found;
    auto keep = [](std::optional<std::string_view>& slot, std::string_view value) {
        if (!slot) slot = value;
    };
    constexpr std::string_view parameter_prefix = "mcp-param-";
    for (const auto& field : request) {
        std::string_view value(field.value().data(), field.value().size());
        switch (field.name()) {
        case web::field::host: keep(found.host, value); continue;
        case web::field::origin: keep(found.origin, value); continue;
        case web::field::content_type: keep(found.content_type, value); continue;
        case web::field::accept: keep(found.accept, value); continue;
        case web::field::unknown: break;
        default: continue;
        }
        std::string_view name(field.name_string().data(), field.name_string().size());
        if (name.size() < 8 || (ascii_lower(name[0]) != 'm' && ascii_lower(name[0]) != 'l')) continue;
        if (equals_case_insensitive(name, "mcp-session-id")) {
            keep(found.session_id, value);
        } else if (equals_case_insensitive(name, "mcp-protocol-version")) {
            keep(found.protocol_version, value);
        } else if (equals_case_insensitive(name, "last-event-id")) {
            keep(found.last_event_id, value);
        } else if (equals_case_insensitive(name, "mcp-method")) {
            keep(found.mcp_method, value);
        } else if (equals_case_insensitive(name, "mcp-name")) {
            keep(found.mcp_name, value);
        } else if (name.size() > parameter_prefix.size() &&
                   equals_case_insensitive(name.substr(0, parameter_prefix.size()), parameter_prefix)) {
            found.parameters.emplace_back(name.substr(parameter_prefix.size()), value);
        }
    }
    return found;
}

/// The state of one connection, shared by the helpers below.
class ConnectionState : public std::enable_shared_from_this<ConnectionState> {
public:
    ConnectionState(tcp::socket socket, std::shared_ptr<Frontend> frontend, asio::io_context::executor_type executor)
        : stream_(std::move(socket)), frontend_(std::move(frontend)), executor_(executor) {}

    asio::awaitable<void> run();

private:
    /// Handles one request; returns whether the connection may carry another.
    asio::awaitable<bool> handle(Request& request);
    // The EndpointRequest lives in handle()'s frame, which awaits these: passed by reference, it is built in place.
    asio::awaitable<bool> handle_post(Request& request, const IncomingHeaders& headers, EndpointRequest& endpoint_request,
                                      bool keep_alive);
    asio::awaitable<bool> send_to_endpoint(EndpointRequest& endpoint_request, bool keep_alive);
    asio::awaitable<bool> write_stream(ResponseStream& http, ResponseStream::Update update, bool keep_alive);
    asio::awaitable<bool> respond(web::status status, std::string body, bool keep_alive, std::string_view session_id = {},
                                  std::string_view allow = {});
    void watch_for_departure(const std::shared_ptr<ResponseStream>& http);
    void stop_watching();
    void report_departure(const std::shared_ptr<ResponseStream>& http);

    beast::tcp_stream stream_;
    std::shared_ptr<Frontend> frontend_;
    asio::io_context::executor_type executor_;
    beast::flat_buffer buffer_;
    jsonrpc::Decoder decoder_;
    unsigned version_ = 11;
    std::string head_;  ///< response head, reused across requests
    bool watching_ = false;
};

asio::awaitable<void> ConnectionState::run() {
    boost::system::error_code ignored;
    stream_.socket().set_option(tcp::no_delay(true), ignored);
    for (;;) {
        web::request_parser<web::string_body> parser;
        parser.body_limit(frontend_->options.max_body_bytes);
        parser.header_limit(64 * 1024);
        stream_.expires_after(frontend_->options.connection_idle_timeout);
        auto [ec, bytes] = co_await web::async_read(stream_, buffer_, parser, use_tuple);
        if (ec == web::error::body_limit) {
            co_await respond(web::status::payload_too_large,
                             error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                        "Request body exceeds " + std::to_string(frontend_->options.max_body_bytes) +
                                            " bytes; send smaller messages"),
                             false);
            break;
        }
        if (ec) break;  // the client left, idled out, or sent something that is not HTTP
        stream_.expires_never();
        Request request = parser.release();
        version_ = request.version();
        ++frontend_->requests_in_progress;
        bool keep_alive = co_await handle(request);
        --frontend_->requests_in_progress;
        if (!keep_alive || frontend_->stopping) break;
    }
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.close();
}

asio::awaitable<bool> ConnectionState::handle(Request& request) {
    bool keep_alive = request.keep_alive();
    std::string_view target(request.target().data(), request.target().size());
    if (auto query = target.find('?'); query != std::string_view::npos) target = target.substr(0, query);
    if (target != frontend_->options.path)
        co_return co_await respond(web::status::not_found,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "No MCP endpoint at " + std::string(target) + "; it is at " +
                                                  frontend_->options.path),
                                   keep_alive);
    auto headers = read_headers(request);
    if (auto problem = check_host_and_origin(frontend_->host_policy, headers.host.value_or(""), headers.origin)) {
        if (frontend_->options.log) frontend_->options.log(*problem);
        co_return co_await respond(web::status::forbidden,
                                   error_body(jsonrpc::RequestId(), -32000, *problem), keep_alive);
    }
    EndpointRequest endpoint_request;
    endpoint_request.session_id = std::string(headers.session_id.value_or(""));
    endpoint_request.version_header = std::string(trim_ows(headers.protocol_version.value_or("")));
    switch (request.method()) {
    case web::verb::post:
        co_return co_await handle_post(request, headers, endpoint_request, keep_alive);
    case web::verb::get: {
        auto accept = headers.accept.value_or("");
        if (!contains_case_insensitive(accept, "text/event-stream") && !contains_case_insensitive(accept, "*/*"))
            co_return co_await respond(web::status::not_acceptable,
                                       error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                                  "GET opens an SSE stream: Accept must include text/event-stream"),
                                       keep_alive);
        endpoint_request.verb = EndpointRequest::Verb::get;
        endpoint_request.last_event_id = std::string(trim_ows(headers.last_event_id.value_or("")));
        co_return co_await send_to_endpoint(endpoint_request, keep_alive);
    }
    case web::verb::delete_:
        endpoint_request.verb = EndpointRequest::Verb::remove;
        co_return co_await send_to_endpoint(endpoint_request, keep_alive);
    default:
        co_return co_await respond(web::status::method_not_allowed,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "Use POST to send messages, GET to listen, DELETE to end a session"),
                                   keep_alive, {}, "GET, POST, DELETE");
    }
}

asio::awaitable<bool> ConnectionState::handle_post(Request& request, const IncomingHeaders& headers,
                                                   EndpointRequest& endpoint_request, bool keep_alive) {
    auto content_type = headers.content_type.value_or("");
    if (!contains_case_insensitive(content_type, "application/json"))
        co_return co_await respond(web::status::unsupported_media_type,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "Content-Type must be application/json"),
                                   keep_alive);
    auto accept = headers.accept.value_or("");
    bool any = contains_case_insensitive(accept, "*/*");
    bool accepts_json = any || contains_case_insensitive(accept, "application/json");
    bool accepts_sse = any || contains_case_insensitive(accept, "text/event-stream");
    if (!accepts_json || !accepts_sse)
        co_return co_await respond(web::status::not_acceptable,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "Accept must list both application/json and text/event-stream"),
                                   keep_alive);

    endpoint_request.verb = EndpointRequest::Verb::post;
    endpoint_request.accepts_sse = accepts_sse;
    auto version_header = headers.protocol_version;  // absent and empty differ here
    endpoint_request.messages = decoder_.decode(request.body());
    auto& messages = endpoint_request.messages;
    if (!messages.is_batch) {
        if (auto* error = std::get_if<jsonrpc::DecodeError>(&messages.single))
            co_return co_await respond(web::status::bad_request,
                                       error_body(error->id, error->error.code, error->error.message, error->error.data),
                                       keep_alive);
    }
    auto meta_version = meta_protocol_version(messages);
    endpoint_request.modern = !messages.is_batch &&
                              is_modern_request(!endpoint_request.session_id.empty(), endpoint_request.version_header,
                                                meta_version.has_value());
    if (endpoint_request.modern) {
        if (auto problem = check_standard_headers(messages, version_header, headers.mcp_method, headers.mcp_name)) {
            const jsonrpc::Request* call = single_request(messages);
            co_return co_await respond(web::status::bad_request,
                                       error_body(call ? call->id : jsonrpc::RequestId(),
                                                  jsonrpc::error_code::header_mismatch, problem->message),
                                       keep_alive);
        }
        if (single_method(messages) == "tools/call") {
            for (const auto& [name, value] : headers.parameters)
                endpoint_request.parameter_headers.push_back(ParameterHeader{std::string(name), std::string(value)});
        }
    } else if (!endpoint_request.version_header.empty() && !versions::is_supported(endpoint_request.version_header)) {
        co_return co_await respond(web::status::bad_request,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "Unsupported MCP-Protocol-Version \"" + endpoint_request.version_header +
                                                  "\"; supported: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, "
                                                  "2026-07-28"),
                                   keep_alive);
    }
    if (!endpoint_request.modern) endpoint_request.body = std::move(request.body());  // kept for stream takeover
    co_return co_await send_to_endpoint(endpoint_request, keep_alive);
}

asio::awaitable<bool> ConnectionState::send_to_endpoint(EndpointRequest& endpoint_request, bool keep_alive) {
    auto http = std::make_shared<ResponseStream>(executor_);
    endpoint_request.http = http;
    // Boxed: the request is large, and moving it through the post costs more than one allocation.
    asio::post(frontend_->server_executor, [endpoint = frontend_->endpoint,
                                            request = std::make_unique<EndpointRequest>(std::move(endpoint_request))] {
        endpoint->handle(*request);
    });
    auto update = co_await http->next(quick_answer);
    while (update.timed_out) {
        // A slow answer: notice if the client gives up meanwhile (2026 clients cancel that way).
        watch_for_departure(http);
        update = co_await http->next(frontend_->options.sse_keepalive);
    }
    if (http->client_gone()) {
        stop_watching();
        report_departure(http);
        co_return false;
    }
    co_return co_await write_stream(*http, std::move(update), keep_alive);
}

asio::awaitable<bool> ConnectionState::write_stream(ResponseStream& http, ResponseStream::Update update, bool keep_alive) {
    auto self_http = http.shared_from_this();
    if (update.kind == ResponseStream::Kind::json) {
        stop_watching();
        co_return co_await respond(static_cast<web::status>(update.status), std::move(update.body), keep_alive,
                                   update.session_id);
    }
    web::response<web::empty_body> head{web::status::ok, version_};
    head.set(web::field::content_type, "text/event-stream");
    head.set(web::field::cache_control, "no-cache, no-transform");
    head.set("X-Accel-Buffering", "no");
    if (!update.session_id.empty()) head.set("Mcp-Session-Id", update.session_id);
    head.keep_alive(keep_alive);
    head.chunked(true);
    web::response_serializer<web::empty_body> serializer{head};
    auto [head_error, head_bytes] = co_await web::async_write_header(stream_, serializer, use_tuple);
    bool ok = !head_error;
    while (ok) {
        if (!update.body.empty()) {
            auto [ec, n] = co_await asio::async_write(stream_, web::make_chunk(asio::buffer(update.body)), use_tuple);
            ok = !ec;
        }
        if (!ok || update.finished) break;
        watch_for_departure(self_http);
        update = co_await http.next(frontend_->options.sse_keepalive);
        if (update.timed_out) update.body = ": keepalive\n\n";
    }
    stop_watching();
    if (!ok || http.client_gone()) {
        http.mark_client_gone();
        report_departure(self_http);
        co_return false;
    }
    auto [end_error, end_bytes] = co_await asio::async_write(stream_, web::make_chunk_last(), use_tuple);
    co_return keep_alive && !end_error;
}

asio::awaitable<bool> ConnectionState::respond(web::status status, std::string body, bool keep_alive,
                                               std::string_view session_id, std::string_view allow) {
    // Written by hand: Beast's generic serializer cost more than everything else in an echo call.
    auto reason = web::obsolete_reason(status);
    head_.clear();
    head_.append(version_ == 10 ? "HTTP/1.0 " : "HTTP/1.1 ")
        .append(std::to_string(static_cast<unsigned>(status)))
        .append(" ")
        .append(reason.data(), reason.size())
        .append("\r\n");
    if (!body.empty()) head_.append("Content-Type: application/json\r\n");
    head_.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
    if (!session_id.empty()) head_.append("Mcp-Session-Id: ").append(session_id).append("\r\n");
    if (!allow.empty()) head_.append("Allow: ").append(allow).append("\r\n");
    if (!keep_alive && version_ != 10) head_.append("Connection: close\r\n");
    if (keep_alive && version_ == 10) head_.append("Connection: keep-alive\r\n");
    head_.append("\r\n");
    std::array<asio::const_buffer, 2> buffers{asio::buffer(head_), asio::buffer(body)};
    auto [ec, bytes] = co_await asio::async_write(stream_.socket(), buffers, use_tuple);
    co_return keep_alive && !ec;
}

void ConnectionState::watch_for_departure(const std::shared_ptr<ResponseStream>& http) {
    if (watching_) return;
    watching_ = true;
    int fd = stream_.socket().native_handle();
    // Readable while we only write means the client closed (or sent the next request early).
    stream_.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this(), http, fd](const boost::system::error_code& ec) {
        if (ec) return;
        self->watching_ = false;
        char byte;
        ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) http->mark_client_gone();
    });
}

void ConnectionState::stop_watching() {
    if (!watching_) return;
    watching_ = false;
    boost::system::error_code ignored;
    stream_.socket().cancel(ignored);
}

void ConnectionState::report_departure(const std::shared_ptr<ResponseStream>& http) {
    asio::post(frontend_->server_executor, [http] {
        if (http->on_client_gone) http->on_client_gone();
    });
}

}  // namespace

asio::awaitable<void> serve_http_connection(tcp::socket socket, std::shared_ptr<Frontend> frontend,
                                            asio::io_context::executor_type executor) {
    auto state = std::make_shared<ConnectionState>(std::move(socket), std::move(frontend), executor);
    co_await state->run();
}

}  // namespace mcp::http
