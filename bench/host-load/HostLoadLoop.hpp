#pragma once
// What both halves of host_load share: one epoll loop over non-blocking sockets, and helpers.

#include <mcp/jsonrpc/JsonWriter.hpp>

#include <boost/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace host_load {
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

[[noreturn]] inline void fail(const std::string& message) {
    std::fprintf(stderr, "host_load: %s\n", message.c_str());
    std::exit(1);
}

inline std::mt19937_64& random_engine() {
    static std::mt19937_64 engine(std::random_device{}());
    return engine;
}

inline std::string random_hex(std::size_t bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < bytes; ++i) {
        auto byte = static_cast<unsigned>(random_engine()() & 0xff);
        out += digits[byte >> 4];
        out += digits[byte & 0xf];
    }
    return out;
}

inline std::string quoted(std::string_view text) {
    std::string out;
    mcp::jsonrpc::append_json_string(out, text);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Sockets on one epoll loop: each connection reads into `in` and writes through `out` (what the
// kernel did not take yet). Edge-triggered, registered once for reading and writing.

struct Connection {
    int fd = -1;
    std::string in;
    std::string out;
    bool closed = false;
    std::function<void(Connection&)> on_input;  ///< new bytes are in `in`
};

class Loop {
public:
    Loop() : epoll_(epoll_create1(EPOLL_CLOEXEC)) {
        if (epoll_ < 0) fail("epoll_create1 failed");
    }
    void add(Connection& connection) {
        epoll_event event{};
        event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
        event.data.ptr = &connection;
        if (epoll_ctl(epoll_, EPOLL_CTL_ADD, connection.fd, &event) != 0) fail("epoll_ctl failed");
    }
    void watch_fd(int fd, std::function<void()> on_ready) {
        ready_[fd] = std::move(on_ready);
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u64 = static_cast<std::uint64_t>(fd) | (1ull << 63);
        if (epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) != 0) fail("epoll_ctl failed");
    }
    /// Runs until `done()` says so (checked after each batch of events).
    void run(const std::function<bool()>& done, int timeout_ms = 100) {
        std::array<epoll_event, 256> events;
        while (!done()) {
            int count = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout_ms);
            if (count < 0 && errno != EINTR) fail("epoll_wait failed");
            for (int i = 0; i < count; ++i) {
                if (events[i].data.u64 >> 63) {
                    ready_[static_cast<int>(events[i].data.u64 & 0x7fffffff)]();
                    continue;
                }
                auto& connection = *static_cast<Connection*>(events[i].data.ptr);
                if (events[i].events & EPOLLOUT) flush(connection);
                if (events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
                    read_all(connection, (events[i].events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0);
            }
        }
    }
    static void send(Connection& connection, std::string_view bytes) {
        if (connection.closed) return;
        if (!connection.out.empty()) {
            connection.out.append(bytes);
            return;
        }
        ssize_t sent = ::send(connection.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno != EAGAIN) connection.closed = true;
            sent = 0;
        }
        if (static_cast<std::size_t>(sent) < bytes.size()) connection.out.append(bytes.substr(static_cast<std::size_t>(sent)));
    }

private:
    static void flush(Connection& connection) {
        while (!connection.out.empty() && !connection.closed) {
            ssize_t sent = ::send(connection.fd, connection.out.data(), connection.out.size(), MSG_NOSIGNAL);
            if (sent < 0) {
                if (errno != EAGAIN) connection.closed = true;
                return;
            }
            connection.out.erase(0, static_cast<std::size_t>(sent));
        }
    }
    static void read_all(Connection& connection, bool hung_up) {
        char buffer[65536];
        bool got = false;
        for (;;) {
            ssize_t n = ::recv(connection.fd, buffer, sizeof buffer, 0);
            if (n > 0) {
                connection.in.append(buffer, static_cast<std::size_t>(n));
                got = true;
                // A short read took all there was: the next arrival is a new edge, so no recv is
                // spent learning EAGAIN (the load core is the benchmark's limit). After a hang-up,
                // read on to the end.
                if (!hung_up && static_cast<std::size_t>(n) < sizeof buffer) break;
                continue;
            }
            if (n == 0 || errno != EAGAIN) connection.closed = true;
            break;
        }
        if (got && connection.on_input) connection.on_input(connection);
    }
    int epoll_;
    std::unordered_map<int, std::function<void()>> ready_;
};

inline int tcp_socket() {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fail("socket failed");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

inline sockaddr_in loopback(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

inline void make_non_blocking(int fd) {
    int one = 1;
    if (ioctl(fd, FIONBIO, &one) != 0) fail("FIONBIO failed");
}

/// The modes, each in its own file.
int run_fake_llm(int port, const std::string& api_key);
int run_turns(int port, int sessions);

}  // namespace host_load
