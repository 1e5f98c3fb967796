#include "transport/http/RouteReply.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp {

std::optional<std::string_view> HttpRouteRequest::header(std::string_view lower_case_name) const {
    for (const auto& [name, value] : headers)
        if (name == lower_case_name) return std::string_view(value);
    return std::nullopt;
}

}  // namespace mcp

namespace mcp::http {
namespace asio = boost::asio;

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
