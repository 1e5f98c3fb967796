#pragma once
// Running coroutines to completion inside a test, with a deadline so a bug hangs nothing.

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <exception>

namespace mcp::testing {

/// Runs `body` on `io` until it finishes; fails the test if it takes longer than `limit`.
template <class Body>
void run(boost::asio::io_context& io, Body body, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    bool finished = false;
    std::exception_ptr failure;
    boost::asio::co_spawn(io, body(), [&](std::exception_ptr e) {
        finished = true;
        failure = e;
        io.stop();
    });
    boost::asio::steady_timer deadline(io, limit);
    deadline.async_wait([&](boost::system::error_code ec) {
        if (!ec) io.stop();
    });
    io.restart();
    io.run();
    ASSERT_TRUE(finished) << "the test coroutine did not finish within " << limit.count() << " ms";
    if (failure) std::rethrow_exception(failure);
}

inline boost::asio::awaitable<void> sleep_for(std::chrono::milliseconds duration) {
    boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor, duration);
    co_await timer.async_wait(boost::asio::use_awaitable);
}

}  // namespace mcp::testing

/// ASSERT_* return from the function, which a coroutine cannot do; these end the coroutine instead.
#define CO_ASSERT_TRUE(condition)                                      \
    do {                                                               \
        if (!(condition)) {                                            \
            ADD_FAILURE() << "assertion failed: " #condition;          \
            co_return;                                                 \
        }                                                              \
    } while (0)
#define CO_ASSERT_EQ(a, b)                                              \
    do {                                                                \
        if (!((a) == (b))) {                                            \
            ADD_FAILURE() << "assertion failed: " #a " == " #b;         \
            co_return;                                                  \
        }                                                               \
    } while (0)
