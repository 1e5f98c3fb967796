#pragma once
// A redis-server of our own on a free port, started on first use and stopped when the test
// program ends: store tests run against the real thing.

#include <csignal>
#include <string>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::testing {

class RedisTestServer {
public:
    static RedisTestServer& instance() {
        static RedisTestServer server;
        return server;
    }
    std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
    ~RedisTestServer() {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            ::waitpid(pid_, nullptr, 0);
        }
    }

private:
    RedisTestServer() {
        port_ = free_port();
        pid_ = ::fork();
        if (pid_ == 0) {
            auto port = std::to_string(port_);
            ::execlp("redis-server", "redis-server", "--port", port.c_str(), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--loglevel", "warning", static_cast<char*>(nullptr));
            ::_exit(127);
        }
    }
    static int free_port() {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
        socklen_t length = sizeof address;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
        ::close(fd);
        return ntohs(address.sin_port);
    }
    int port_ = 0;
    pid_t pid_ = -1;
};

}  // namespace mcp::testing
