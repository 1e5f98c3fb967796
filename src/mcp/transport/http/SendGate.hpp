#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Messages must reach a Streamable HTTP server in the order they were sent, but each goes in a
// POST of its own: the sender waits for one POST's response head (or a short deadline, so a slow
// answer holds nothing back) before it starts the next.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>

namespace mcp::http {

/// Holds the sender until a response head arrives or a deadline passes.
class SendGate {
public:
    SendGate(const boost::asio::any_io_executor& executor, std::chrono::milliseconds limit) : timer_(executor, limit) {}
    void open() {
        opened_ = true;
        timer_.cancel();
    }
    boost::asio::awaitable<void> wait() {
        if (!opened_) co_await timer_.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }

private:
    boost::asio::steady_timer timer_;
    bool opened_ = false;
};

}  // namespace mcp::http
