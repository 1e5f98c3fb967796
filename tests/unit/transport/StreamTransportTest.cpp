// Newline framing over real pipes: split and merged writes, CRLF, oversized frames, EOF.

#include "mcp/transport/StreamTransport.hpp"

#include "TestSupport.hpp"
#include "mcp/jsonrpc/Connection.hpp"

#include <boost/asio/detached.hpp>
#include <boost/json/parse.hpp>

#include <fcntl.h>
#include <unistd.h>

using namespace mcp;
using mcp::testing::run;
using mcp::testing::sleep_for;
namespace asio = boost::asio;

namespace {

struct Pipes {
    int to_transport[2];
    int from_transport[2];
    Pipes() {
        EXPECT_EQ(::pipe2(to_transport, O_CLOEXEC), 0);
        EXPECT_EQ(::pipe2(from_transport, O_CLOEXEC), 0);
    }
    ~Pipes() {
        for (int fd : {to_transport[1], from_transport[0]})
            if (fd >= 0) ::close(fd);
    }
    void write(std::string_view bytes) const {
        ASSERT_EQ(::write(to_transport[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    }
    void close_input() {
        ::close(to_transport[1]);
        to_transport[1] = -1;
    }
    std::string read_available() const {
        std::string out;
        char buffer[4096];
        int flags = ::fcntl(from_transport[0], F_GETFL);
        ::fcntl(from_transport[0], F_SETFL, flags | O_NONBLOCK);
        ssize_t n;
        while ((n = ::read(from_transport[0], buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<std::size_t>(n));
        return out;
    }
};

std::string next_text(jsonrpc::ChannelRead read) {
    EXPECT_EQ(read.kind, jsonrpc::ChannelRead::Kind::message);
    return std::string(read.text);
}

}  // namespace

TEST(StreamTransport, SplitsMergedWritesAndJoinsSplitOnes) {
    asio::io_context io;
    Pipes pipes;
    auto transport = std::make_shared<StreamTransport>(io.get_executor(), pipes.to_transport[0], pipes.from_transport[1]);
    run(io, [&]() -> asio::awaitable<void> {
        pipes.write("{\"a\":1}\n{\"b\":2}\r\n{\"c\":");
        EXPECT_EQ(next_text(co_await transport->read()), "{\"a\":1}");
        EXPECT_EQ(next_text(co_await transport->read()), "{\"b\":2}");
        auto finish_later = [&]() -> asio::awaitable<void> {
            co_await sleep_for(std::chrono::milliseconds(10));
            pipes.write("3}\n");
            co_await sleep_for(std::chrono::milliseconds(10));
            pipes.write("{\"last\":true}");  // no newline before EOF still counts
            pipes.close_input();
        };
        asio::co_spawn(io, finish_later(), asio::detached);
        EXPECT_EQ(next_text(co_await transport->read()), "{\"c\":3}");
        EXPECT_EQ(next_text(co_await transport->read()), "{\"last\":true}");
        EXPECT_EQ((co_await transport->read()).kind, jsonrpc::ChannelRead::Kind::end_of_stream);
    });
}

TEST(StreamTransport, SkipsAnOversizedFrameAndKeepsTheNext) {
    asio::io_context io;
    Pipes pipes;
    auto transport = std::make_shared<StreamTransport>(io.get_executor(), pipes.to_transport[0],
                                                       pipes.from_transport[1], StreamTransportOptions{1024});
    run(io, [&]() -> asio::awaitable<void> {
        auto writer = [&]() -> asio::awaitable<void> {
            std::string huge(300 * 1024, 'x');  // larger than the pipe buffer and the limit
            for (std::size_t offset = 0; offset < huge.size(); offset += 16 * 1024) {
                pipes.write(std::string_view(huge).substr(offset, 16 * 1024));
                co_await sleep_for(std::chrono::milliseconds(1));
            }
            pipes.write("\n{\"after\":1}\n");
        };
        asio::co_spawn(io, writer(), asio::detached);
        jsonrpc::ChannelRead skipped = co_await transport->read();
        EXPECT_EQ(skipped.kind, jsonrpc::ChannelRead::Kind::oversized);
        EXPECT_EQ(skipped.size, 300u * 1024u);
        EXPECT_EQ(next_text(co_await transport->read()), "{\"after\":1}");
    });
}

TEST(StreamTransport, CoalescesQueuedFramesInOrder) {
    asio::io_context io;
    Pipes pipes;
    auto transport = std::make_shared<StreamTransport>(io.get_executor(), pipes.to_transport[0], pipes.from_transport[1]);
    run(io, [&]() -> asio::awaitable<void> {
        for (int i = 0; i < 100; ++i) transport->send("{\"n\":" + std::to_string(i) + "}");
        co_await sleep_for(std::chrono::milliseconds(20));
        std::string written = pipes.read_available();
        std::string expected;
        for (int i = 0; i < 100; ++i) expected += "{\"n\":" + std::to_string(i) + "}\n";
        EXPECT_EQ(written, expected);
    });
}

TEST(StreamTransport, APeerThatStopsReadingIsGivenUpPastTheUnsentLimit) {
    asio::io_context io;
    Pipes pipes;
    StreamTransportOptions options;
    options.max_unsent_bytes = 1 << 20;
    auto transport = std::make_shared<StreamTransport>(io.get_executor(), pipes.to_transport[0], pipes.from_transport[1], options);
    std::optional<boost::system::error_code> failure;
    transport->on_write_error([&](const boost::system::error_code& ec) { failure = ec; });
    run(io, [&]() -> asio::awaitable<void> {
        // Nobody reads: the pipe (64 KiB) fills, and the rest queues up to the limit.
        std::string frame(16 * 1024, 'x');
        for (int i = 0; i < 200 && !failure; ++i) {
            transport->send(frame);
            co_await sleep_for(std::chrono::milliseconds(1));
        }
        CO_ASSERT_TRUE(failure.has_value());
        EXPECT_EQ(*failure, asio::error::no_buffer_space);
        co_await sleep_for(std::chrono::milliseconds(5));
        EXPECT_EQ((co_await transport->read()).kind, jsonrpc::ChannelRead::Kind::end_of_stream) << "closed";
    });
}

TEST(StreamTransport, ServerAnswersRequestsWrittenJustBeforeEndOfInput) {
    // `printf '…' | server`: requests and EOF arrive together; every request still gets its answer.
    class Slow : public jsonrpc::Dispatcher {
    public:
        asio::awaitable<jsonrpc::Reply> handle_request(jsonrpc::InboundRequest& request) override {
            co_await sleep_for(std::chrono::milliseconds(30));
            co_return jsonrpc::Reply::success(boost::json::object{{"method", request.method}});
        }
        void handle_notification(jsonrpc::Notification&) override {}
    };
    asio::io_context io;
    Pipes pipes;
    auto transport = std::make_shared<StreamTransport>(io.get_executor(), pipes.to_transport[0], pipes.from_transport[1]);
    auto dispatcher = std::make_shared<Slow>();
    auto connection = std::make_shared<jsonrpc::Connection>(transport, dispatcher);
    run(io, [&]() -> asio::awaitable<void> {
        pipes.write(R"({"jsonrpc":"2.0","id":1,"method":"a"})" "\n" R"({"jsonrpc":"2.0","id":2,"method":"b"})" "\n");
        pipes.close_input();
        co_await connection->run();
        co_await sleep_for(std::chrono::milliseconds(5));
        std::string written = pipes.read_available();
        EXPECT_NE(written.find(R"("id":1)"), std::string::npos) << written;
        EXPECT_NE(written.find(R"("id":2)"), std::string::npos) << written;
    });
}
