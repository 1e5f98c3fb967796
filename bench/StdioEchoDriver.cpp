// Load driver for the stdio benchmark: starts a server, initializes it, then keeps N tools/call
// echo requests in flight for a fixed time and reports throughput and latency percentiles.
//
//   stdio_echo_driver --in-flight 64 --seconds 5 [--raw] -- COMMAND ARGS...
//
// --raw: the server does not speak MCP (the trivial responder): skip the handshake and pair
// answers with requests in order. Output: one JSON line with the figures.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

struct Child {
    pid_t pid = -1;
    int in = -1;   // we write here
    int out = -1;  // we read here
};

Child start(const std::vector<std::string>& command) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) {
        std::perror("pipe");
        std::exit(2);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    posix_spawn_file_actions_addclose(&actions, to_child[1]);
    posix_spawn_file_actions_addclose(&actions, from_child[0]);
    std::vector<char*> argv;
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    Child child;
    if (posix_spawnp(&child.pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
        std::fprintf(stderr, "cannot start %s\n", argv[0]);
        std::exit(2);
    }
    close(to_child[0]);
    close(from_child[1]);
    child.in = to_child[1];
    child.out = from_child[0];
    return child;
}

void write_all(int fd, const std::string& data) {
    std::size_t offset = 0;
    while (offset < data.size()) {
        ssize_t n = write(fd, data.data() + offset, data.size() - offset);
        if (n <= 0) {
            std::perror("write");
            std::exit(2);
        }
        offset += static_cast<std::size_t>(n);
    }
}

/// Reads whole lines from the server.
class LineReader {
public:
    explicit LineReader(int fd) : fd_(fd) {}
    /// Appends complete lines to `lines`; returns false at EOF.
    bool read_lines(std::vector<std::string>& lines) {
        char chunk[1 << 16];
        ssize_t n = read(fd_, chunk, sizeof chunk);
        if (n <= 0) return false;
        buffer_.append(chunk, static_cast<std::size_t>(n));
        std::size_t start = 0, newline;
        while ((newline = buffer_.find('\n', start)) != std::string::npos) {
            lines.emplace_back(buffer_, start, newline - start);
            start = newline + 1;
        }
        buffer_.erase(0, start);
        return true;
    }

private:
    int fd_;
    std::string buffer_;
};

std::string request(long id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
           ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hello\"}}}\n";
}

/// The id of a response line, found without a JSON parser (the driver must stay cheap).
long response_id(const std::string& line) {
    std::size_t at = line.find("\"id\":");
    if (at == std::string::npos) return -1;
    return std::strtol(line.c_str() + at + 5, nullptr, 10);
}

void handshake(Child& child, LineReader& reader) {
    write_all(child.in,
              "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
              "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n");
    std::vector<std::string> lines;
    while (lines.empty())
        if (!reader.read_lines(lines)) {
            std::fprintf(stderr, "the server closed during initialize\n");
            std::exit(2);
        }
    write_all(child.in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
}

}  // namespace

int main(int argc, char** argv) {
    int in_flight = 1;
    double seconds = 5;
    bool raw = false;
    std::vector<std::string> command;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--in-flight" && i + 1 < argc) {
            in_flight = std::atoi(argv[++i]);
        } else if (arg == "--seconds" && i + 1 < argc) {
            seconds = std::atof(argv[++i]);
        } else if (arg == "--raw") {
            raw = true;
        } else if (arg == "--") {
            for (++i; i < argc; ++i) command.emplace_back(argv[i]);
        }
    }
    if (command.empty() || in_flight < 1) {
        std::fprintf(stderr, "usage: stdio_echo_driver --in-flight N --seconds S [--raw] -- COMMAND ARGS...\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    Child child = start(command);
    LineReader reader(child.out);
    if (!raw) handshake(child, reader);

    // Warm up for a moment, then measure.
    std::vector<Clock::time_point> sent_at(1 << 22);
    std::deque<long> order;  // ids in flight, oldest first (for --raw)
    std::vector<double> latencies_us;
    latencies_us.reserve(1 << 22);
    long next_id = 1;
    long completed = 0;
    auto send_batch = [&](int count) {
        std::string batch;
        for (int i = 0; i < count; ++i) {
            long id = next_id++;
            sent_at[static_cast<std::size_t>(id) % sent_at.size()] = Clock::now();
            order.push_back(id);
            batch += request(id);
        }
        write_all(child.in, batch);
    };
    const auto warmup_end = Clock::now() + std::chrono::milliseconds(500);
    const auto end = warmup_end + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    Clock::time_point measure_start{};
    long measured_start_count = 0;
    send_batch(in_flight);
    std::vector<std::string> lines;
    bool measuring = false;
    for (;;) {
        lines.clear();
        if (!reader.read_lines(lines)) {
            std::fprintf(stderr, "the server closed its output\n");
            return 2;
        }
        auto now = Clock::now();
        int answered = 0;
        for (const auto& line : lines) {
            long id = raw ? order.front() : response_id(line);
            if (id <= 0) continue;  // a notification
            if (raw) order.pop_front();
            ++answered;
            ++completed;
            if (measuring)
                latencies_us.push_back(
                    std::chrono::duration<double, std::micro>(now - sent_at[static_cast<std::size_t>(id) % sent_at.size()]).count());
        }
        if (!measuring && now >= warmup_end) {
            measuring = true;
            measure_start = now;
            measured_start_count = completed;
        }
        if (now >= end) break;
        if (answered > 0) send_batch(answered);
    }
    double elapsed = std::chrono::duration<double>(Clock::now() - measure_start).count();
    double rate = static_cast<double>(completed - measured_start_count) / elapsed;
    std::sort(latencies_us.begin(), latencies_us.end());
    auto percentile = [&](double p) {
        if (latencies_us.empty()) return 0.0;
        return latencies_us[std::min(latencies_us.size() - 1, static_cast<std::size_t>(p * latencies_us.size()))];
    };
    std::printf("{\"in_flight\":%d,\"requests_per_second\":%.0f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"requests\":%zu}\n",
                in_flight, rate, percentile(0.50), percentile(0.99), latencies_us.size());
    close(child.in);
    int status = 0;
    for (int i = 0; i < 100 && waitpid(child.pid, &status, WNOHANG) == 0; ++i) usleep(10000);
    kill(child.pid, SIGKILL);
    waitpid(child.pid, &status, 0);
    return 0;
}
