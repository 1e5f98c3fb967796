#include "mcp/transport/MemoryTransport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <deque>
#include <string>

namespace mcp {
namespace asio = boost::asio;

namespace {

/// Frames travelling one way, with a timer to wake a waiting reader.
struct Channel {
    explicit Channel(const asio::any_io_executor& executor) : ready(executor, asio::steady_timer::time_point::max()) {}
    std::deque<std::string> frames;
    bool closed = false;
    asio::steady_timer ready;
};

class MemoryTransport : public Transport {
public:
    MemoryTransport(asio::any_io_executor executor, std::shared_ptr<Channel> incoming, std::shared_ptr<Channel> outgoing)
        : executor_(std::move(executor)), incoming_(std::move(incoming)), outgoing_(std::move(outgoing)) {}

    asio::awaitable<jsonrpc::ChannelRead> read() override {
        while (incoming_->frames.empty() && !incoming_->closed)
            co_await incoming_->ready.async_wait(asio::as_tuple(asio::use_awaitable));
        if (incoming_->frames.empty()) co_return jsonrpc::ChannelRead{jsonrpc::ChannelRead::Kind::end_of_stream, {}, 0};
        current_ = std::move(incoming_->frames.front());
        incoming_->frames.pop_front();
        co_return jsonrpc::ChannelRead{jsonrpc::ChannelRead::Kind::message, current_, current_.size()};
    }

    void send(std::string_view frame, jsonrpc::FrameInfo) override {
        if (outgoing_->closed) return;
        outgoing_->frames.emplace_back(frame);
        outgoing_->ready.cancel();
    }

    void close() override {
        // Both directions end: the peer reads end_of_stream, and so do we.
        outgoing_->closed = true;
        outgoing_->ready.cancel();
        incoming_->closed = true;
        incoming_->ready.cancel();
    }

    asio::any_io_executor executor() const override { return executor_; }

private:
    asio::any_io_executor executor_;
    std::shared_ptr<Channel> incoming_;
    std::shared_ptr<Channel> outgoing_;
    std::string current_;
};

}  // namespace

std::pair<std::shared_ptr<Transport>, std::shared_ptr<Transport>> make_memory_transports(asio::any_io_executor executor) {
    auto a_to_b = std::make_shared<Channel>(executor);
    auto b_to_a = std::make_shared<Channel>(executor);
    return {std::make_shared<MemoryTransport>(executor, b_to_a, a_to_b),
            std::make_shared<MemoryTransport>(executor, a_to_b, b_to_a)};
}

}  // namespace mcp
