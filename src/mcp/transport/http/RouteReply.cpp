#include "transport/http/RouteReply.hpp"

#include "transport/http/AsciiCase.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/json/serialize.hpp>

namespace mcp {

std::optional<std::string_view> HttpRouteRequest::header(std::string_view lower_case_name) const {
    for (const auto& [name, value] : headers)
        if (name == lower_case_name) return std::string_view(value);
    return std::nullopt;
}

}  // namespace mcp

namespace mcp::http {
namespace asio = boost::asio;

asio::awaitable<HttpRouteResponse> ask_routes(HttpRoutes& routes, const HttpRequest& request, std::string_view path,
                                              asio::io_context::executor_type connection_executor) {
    if (request.body.size() > routes.max_body_bytes(path)) {
        HttpRouteResponse too_large;
        too_large.status = 413;
        too_large.body = R"({"error":"Request body too large: at most )" + std::to_string(routes.max_body_bytes(path)) +
                         " bytes at " + std::string(path) + "\"}";
        co_return too_large;
    }
    HttpRouteRequest route_request;
    route_request.method.assign(request.method);
    route_request.path.assign(path);
    if (auto query = request.target.find('?'); query != std::string_view::npos)
        route_request.query.assign(request.target.substr(query + 1));
    route_request.headers.reserve(request.fields.size());
    for (const auto& field : request.fields) {
        std::string name(field.name);
        for (char& c : name) c = ascii_lower(c);
        route_request.headers.emplace_back(std::move(name), std::string(field.value));
    }
    route_request.body.assign(request.body);
    auto reply = std::make_shared<RouteReply>(connection_executor);
    try {
        routes.handle(std::move(route_request), [reply](HttpRouteResponse answer) { reply->deliver(std::move(answer)); });
    } catch (const std::exception& e) {
        // A route that throws fails its request, not the connection (an answer it gave first wins).
        HttpRouteResponse failed;
        failed.status = 500;
        failed.body = boost::json::serialize(boost::json::object{{"error", "the request failed: " + std::string(e.what())}});
        reply->deliver(std::move(failed));
    }
    co_return co_await reply->wait();
}

std::string route_head(unsigned version, const HttpRouteResponse& response, bool keep_alive) {
    auto status = static_cast<boost::beast::http::status>(response.status);
    auto reason = boost::beast::http::obsolete_reason(status);
    std::string head = version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
    head.append(std::to_string(response.status)).append(" ").append(reason.data(), reason.size()).append("\r\n");
    for (const auto& [name, value] : response.headers) head.append(name).append(": ").append(value).append("\r\n");
    if (response.take_over) {
        if (response.status != 101) head.append("Connection: close\r\n");
    } else {
        if (!response.body.empty()) head.append("Content-Type: ").append(response.content_type).append("\r\n");
        head.append("Content-Length: ").append(std::to_string(response.body.size())).append("\r\n");
        if (!keep_alive && version != 10) head.append("Connection: close\r\n");
        if (keep_alive && version == 10) head.append("Connection: keep-alive\r\n");
    }
    head.append("\r\n");
    return head;
}

RouteReply::RouteReply(asio::io_context::executor_type connection_executor)
    : executor_(connection_executor), timer_(connection_executor) {}

void RouteReply::deliver(HttpRouteResponse response) {
    {
        std::lock_guard lock(mutex_);
        if (delivered_) return;
        delivered_ = true;
        response_ = std::move(response);
    }
    // The timer belongs to the connection's thread: wake it there.
    asio::post(executor_, [self = shared_from_this()] { self->timer_.cancel(); });
}

asio::awaitable<HttpRouteResponse> RouteReply::wait() {
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (response_) co_return std::move(*response_);
        }
        // A delivery between the check and the wait is not lost: its cancel is posted to this
        // thread, so it runs after the wait has begun.
        timer_.expires_at(asio::steady_timer::time_point::max());
        co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
    }
}

}  // namespace mcp::http
