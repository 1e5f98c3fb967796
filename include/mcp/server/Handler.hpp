#pragma once
// Turns whatever callable a user registers into the one shape the server runs:
// a coroutine on the I/O thread returning Outcome<Result>.
//
// Accepted callables take `Context&` and return Result, Outcome<Result>, or an awaitable of either.
// With `blocking`, a plain function runs on the server's worker pool so a slow handler never
// stalls other requests; coroutines always run on the I/O thread (they must not block).

#include "mcp/server/InputRequired.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <functional>
#include <type_traits>

namespace mcp {

/// The one shape the server runs every registered callable in: a coroutine on the I/O thread that
/// gets the request's context and produces a result or an InputRequired.
template <class Result, class Context>
using Handler = std::function<boost::asio::awaitable<Outcome<Result>>(Context&)>;

/// A handler that may run at once on the I/O thread: a plain function that is not blocking.
template <class Result, class Context>
using ImmediateHandler = std::function<Outcome<Result>(Context&)>;

namespace detail {

template <class T>
struct is_awaitable : std::false_type {};
template <class T, class E>
struct is_awaitable<boost::asio::awaitable<T, E>> : std::true_type {};

template <class Result, class Context, class F>
Handler<Result, Context> adapt_handler(F function, boost::asio::thread_pool* blocking_pool) {
    using Returned = std::invoke_result_t<F&, Context&>;
    if constexpr (is_awaitable<Returned>::value) {
        return [function = std::move(function)](Context& context) -> boost::asio::awaitable<Outcome<Result>> {
            co_return Outcome<Result>(co_await function(context));
        };
    } else {
        static_assert(std::is_convertible_v<Returned, Outcome<Result>>,
                      "a handler must return the result type, mcp::InputRequired, or an awaitable of them");
        if (blocking_pool) {
            return [function = std::move(function),
                    blocking_pool](Context& context) -> boost::asio::awaitable<Outcome<Result>> {
                co_return co_await boost::asio::co_spawn(
                    *blocking_pool,
                    [&]() -> boost::asio::awaitable<Outcome<Result>> { co_return Outcome<Result>(function(context)); },
                    boost::asio::use_awaitable);
            };
        }
        return [function = std::move(function)](Context& context) -> boost::asio::awaitable<Outcome<Result>> {
            co_return Outcome<Result>(function(context));
        };
    }
}

/// The plain-call form of `function` when it may run inline (not a coroutine, not blocking); else empty.
template <class Result, class Context, class F>
ImmediateHandler<Result, Context> immediate_handler(const F& function, bool blocking) {
    using Returned = std::invoke_result_t<const F&, Context&>;
    if constexpr (is_awaitable<Returned>::value) {
        return {};
    } else {
        if (blocking) return {};
        return [function](Context& context) { return Outcome<Result>(function(context)); };
    }
}

}  // namespace detail
}  // namespace mcp
