#include "transport/http/HttpConnectionState.hpp"

#include "mcp/protocol/ErrorCodes.hpp"
#include "mcp/protocol/Versions.hpp"
#include "transport/http/AsciiCase.hpp"
#include "transport/http/HttpErrors.hpp"
#include "transport/http/HttpRequestParser.hpp"
#include "transport/http/IncomingHeaders.hpp"
#include "transport/http/RouteReply.hpp"

#include <boost/asio/post.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <cstring>

namespace mcp::http {
namespace asio = boost::asio;
namespace web = boost::beast::http;
using tcp = asio::ip::tcp;

namespace {

/// Header names a preflight may ask for: a comma-separated list of tokens, nothing else, so that
/// echoing it back cannot split the response head.
bool is_header_name_list(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
               c == ',' || c == ' ';
    });
}

}  // namespace

asio::awaitable<void> ConnectionState::run() {
    boost::system::error_code ignored;
    stream_.lowest().set_option(tcp::no_delay(true), ignored);
    watch_idle_time(frontend_->options.connection_idle_timeout);
    frontend_->keep(weak_from_this());
    for (;;) {
        auto status = co_await read_request();
        if (status == HttpRequestParser::Status::incomplete) break;  // the client left or idled out
        if (status == HttpRequestParser::Status::failed) {
            const auto& error = parser_.error();
            version_ = 11;
            cors_origin_.clear();
            co_await respond(static_cast<web::status>(error.status),
                             error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request, error.message), false);
            break;
        }
        const HttpRequest& request = parser_.request();
        version_ = request.version;
        ++frontend_->requests_in_progress;
        bool keep_alive = co_await handle(request);
        --frontend_->requests_in_progress;
        if (!keep_alive || frontend_->stopping) break;
        consume_request();
    }
    idle_timer_.cancel();
    stream_.lowest().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.lowest().close(ignored);
}

asio::awaitable<HttpRequestParser::Status> ConnectionState::read_request() {
    parser_.reset();
    waiting_for_request_ = true;
    waiting_since_ = std::chrono::steady_clock::now();
    for (;;) {
        // A client may send blank lines between requests; they are not part of the next one.
        std::size_t blank = 0;
        while (blank + 1 < buffered_ && buffer_[blank] == '\r' && buffer_[blank + 1] == '\n') blank += 2;
        if (blank > 0) {
            std::memmove(buffer_.data(), buffer_.data() + blank, buffered_ - blank);
            buffered_ -= blank;
        }
        if (buffered_ > 0) {
            auto status = parser_.parse(std::string_view(buffer_.data(), buffered_));
            if (status != HttpRequestParser::Status::incomplete) {
                waiting_for_request_ = false;
                co_return status;
            }
            if (parser_.wants_continue()) {
                parser_.continue_sent();
                constexpr std::string_view interim = "HTTP/1.1 100 Continue\r\n\r\n";
                auto [ec, n] = co_await write(asio::buffer(interim));
                if (ec) break;
            }
        }
        if (buffered_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);  // the parser bounds the growth
        auto space = asio::buffer(buffer_.data() + buffered_, buffer_.size() - buffered_);
        auto [ec, n] = co_await stream_.with([&](auto& stream) { return stream.async_read_some(space, use_tuple); });
        if (ec || n == 0) break;
        buffered_ += n;
    }
    waiting_for_request_ = false;
    co_return HttpRequestParser::Status::incomplete;
}

void ConnectionState::consume_request() {
    std::size_t used = parser_.consumed();
    std::size_t rest = buffered_ - used;
    if (rest > 0) std::memmove(buffer_.data(), buffer_.data() + used, rest);
    buffered_ = rest;
    if (buffer_.size() > initial_buffer_bytes && rest <= initial_buffer_bytes) {
        buffer_.resize(initial_buffer_bytes);
        buffer_.shrink_to_fit();
    }
    parser_.reset();
}

void ConnectionState::watch_idle_time(std::chrono::steady_clock::duration wait) {
    idle_timer_.expires_after(wait);
    idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (ec || !self->stream_.lowest().is_open()) return;
        auto limit = std::chrono::steady_clock::duration(self->frontend_->options.connection_idle_timeout);
        auto now = std::chrono::steady_clock::now();
        auto waited = now - self->waiting_since_;
        auto stalled = now - self->writing_since_;
        if ((self->waiting_for_request_ && waited >= limit) || (self->writing_ && stalled >= limit)) {
            boost::system::error_code ignored;
            self->stream_.lowest().close(ignored);  // the pending read or write ends, and with it the connection
            return;
        }
        self->watch_idle_time(self->waiting_for_request_ ? limit - waited : self->writing_ ? limit - stalled : limit);
    });
}

asio::awaitable<bool> ConnectionState::handle(const HttpRequest& request) {
    cors_origin_.clear();
    bool keep_alive = request.keep_alive;
    std::string_view target = request.target;
    if (auto query = target.find('?'); query != std::string_view::npos) target = target.substr(0, query);
    if (auto* routes = frontend_->options.routes.get(); routes && routes->serves(target))
        co_return co_await answer_route(request, target, keep_alive);
    if (!frontend_->endpoint) {  // an HttpServer: its routes are all there is
        std::string body = boost::json::serialize(boost::json::object{{"error", "nothing at " + std::string(target)}});
        co_return co_await respond(web::status::not_found, std::move(body), keep_alive);
    }
    auto* authorizer = frontend_->options.authorization.get();
    if (authorizer && (request.method == "GET" || request.method == "HEAD"))
        if (auto document = authorizer->document(target))  // protected resource metadata: public
            co_return co_await respond(web::status::ok, std::move(*document), keep_alive);
    if (target != frontend_->options.path)
        co_return co_await respond(web::status::not_found,
                                   error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "No MCP endpoint at " + std::string(target) + "; it is at " +
                                                  frontend_->options.path),
                                   keep_alive);
    auto headers = read_headers(request);
    if (auto problem = frontend_->host_policy.check(headers.host.value_or(""), headers.origin)) {
        if (frontend_->options.log) frontend_->options.log(*problem);
        co_return co_await respond(web::status::forbidden,
                                   error_body(jsonrpc::RequestId(), -32000, *problem), keep_alive);
    }
    if (headers.origin) cors_origin_.assign(*headers.origin);
    if (request.method == "OPTIONS") co_return co_await answer_preflight(headers, keep_alive);
    EndpointRequest endpoint_request;
    if (authorizer) {
        auto verdict = co_await authorizer->authorize(std::string(headers.authorization.value_or("")));
        if (verdict.status != 0)
            co_return co_await respond(static_cast<web::status>(verdict.status), std::move(verdict.body), keep_alive, {},
                                       {}, verdict.www_authenticate);
        endpoint_request.origin = std::move(verdict.origin);
    }
    endpoint_request.session_id = std::string(headers.session_id.value_or(""));
    endpoint_request.version_header = std::string(trim_ows(headers.protocol_version.value_or("")));
    if (request.method == "POST") co_return co_await handle_post(request, headers, endpoint_request, keep_alive);
    if (request.method == "GET") {
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
    if (request.method == "DELETE") {
        endpoint_request.verb = EndpointRequest::Verb::remove;
        co_return co_await send_to_endpoint(endpoint_request, keep_alive);
    }
    co_return co_await respond(web::status::method_not_allowed,
                               error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                          "Use POST to send messages, GET to listen, DELETE to end a session"),
                               keep_alive, {}, "GET, POST, DELETE, OPTIONS");
}

asio::awaitable<bool> ConnectionState::answer_route(const HttpRequest& request, std::string_view path,
                                                   bool keep_alive) {
    HttpRouteResponse response = co_await ask_routes(*frontend_->options.routes, request, path, executor_);
    tcp::socket* socket = stream_.plain();
    if (response.take_over && !socket)
        response = HttpRouteResponse{501, R"({"error":"this answer takes the connection over, which only plain HTTP allows"})"};
    head_ = route_head(version_, response, keep_alive);
    if (response.take_over) {
        auto [ec, bytes] = co_await write(asio::buffer(head_));
        if (ec) co_return false;
        // The route owns the socket from here; run() finds it moved out and closes nothing.
        std::size_t used = parser_.consumed();
        TakenConnection taken{std::move(*socket), std::string(buffer_.data() + used, buffered_ - used)};
        buffered_ = used;
        try {
            response.take_over(std::move(taken));
        } catch (const std::exception& e) {  // the socket went with it, and is closed
            if (frontend_->options.log) frontend_->options.log(std::string("a route taking a connection failed: ") + e.what());
        }
        co_return false;
    }
    bool with_body = request.method != "HEAD";
    std::array<asio::const_buffer, 2> buffers{asio::buffer(head_), asio::buffer(response.body.data(),
                                                                                 with_body ? response.body.size() : 0)};
    auto [ec, bytes] = co_await write(buffers);
    co_return keep_alive && !ec;
}

asio::awaitable<bool> ConnectionState::answer_preflight(const IncomingHeaders& headers, bool keep_alive) {
    head_.assign(version_ == 10 ? "HTTP/1.0 204 No Content\r\n" : "HTTP/1.1 204 No Content\r\n");
    head_.append("Allow: GET, POST, DELETE, OPTIONS\r\n");
    if (!cors_origin_.empty()) {
        add_cors_headers(head_);
        head_.append("Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS\r\n");
        // The page is trusted by now; it may send the MCP headers and any Mcp-Param-* it needs.
        auto requested = trim_ows(headers.cors_request_headers.value_or(""));
        if (!requested.empty() && is_header_name_list(requested))
            head_.append("Access-Control-Allow-Headers: ").append(requested).append("\r\n");
        head_.append("Access-Control-Max-Age: 600\r\n");
    }
    if (!keep_alive && version_ != 10) head_.append("Connection: close\r\n");
    if (keep_alive && version_ == 10) head_.append("Connection: keep-alive\r\n");
    head_.append("\r\n");
    auto [ec, bytes] = co_await write(asio::buffer(head_));
    co_return keep_alive && !ec;
}

void ConnectionState::add_cors_headers(std::string& head) const {
    if (cors_origin_.empty()) return;
    head.append("Access-Control-Allow-Origin: ").append(cors_origin_).append("\r\n");
    head.append("Access-Control-Expose-Headers: Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate\r\nVary: Origin\r\n");
}

asio::awaitable<bool> ConnectionState::handle_post(const HttpRequest& request, const IncomingHeaders& headers,
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
    endpoint_request.messages = decoder_.decode(request.body);
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
            // The id of a request, else null (a notification or response has none). Not a
            // conditional expression with a temporary: g++ 12 miscompiles that in a coroutine
            // (it copied a RequestId that was never made, and the server died on any notification).
            jsonrpc::RequestId id;
            if (const jsonrpc::Request* call = single_request(messages)) id = call->id;
            std::string body = error_body(id, mcp::error_code::header_mismatch, problem->message);
            co_return co_await respond(web::status::bad_request, std::move(body), keep_alive);
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
    if (!endpoint_request.modern) endpoint_request.body.assign(request.body);  // kept for stream takeover
    co_return co_await send_to_endpoint(endpoint_request, keep_alive);
}

asio::awaitable<bool> ConnectionState::send_to_endpoint(EndpointRequest& endpoint_request, bool keep_alive) {
    auto http = std::make_shared<ResponseStream>(executor_);
    endpoint_request.http = http;
    if (frontend_->server_executor.running_in_this_thread()) {
        // One thread serves both sides (--http-threads 0): no hop to make.
        frontend_->endpoint->handle(endpoint_request);
    } else {
        // Boxed: the request is large, and moving it through the post costs more than one allocation.
        asio::post(frontend_->server_executor, [endpoint = frontend_->endpoint,
                                                request = std::make_unique<EndpointRequest>(std::move(endpoint_request))] {
            endpoint->handle(*request);
        });
    }
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


asio::awaitable<void> serve_http_connection(ServerStream stream, std::shared_ptr<Frontend> frontend,
                                            asio::io_context::executor_type executor) {
    auto state = std::make_shared<ConnectionState>(std::move(stream), std::move(frontend), executor);
    co_await state->run();
}

}  // namespace mcp::http
