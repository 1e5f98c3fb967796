// Load driver for the stdio benchmark: starts a server, initializes it, then keeps N tools/call
// echo requests in flight for a fixed time and reports throughput, latency percentiles, and the
// server's CPU time per call (from /proc, so a server that spins is seen to spin).
//
//   stdio_echo_driver --in-flight 64 --seconds 5 [--raw] -- COMMAND ARGS...
//
// Every request echoes its own text ("hello-<id>"); each answer must carry the id of a request in
// flight and that request's text, or the run fails: the figures count correct answers only.
// --raw: the server does not speak MCP (the trivial responder): skip the handshake.
// Output: one JSON line with the figures.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
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
           ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hello-" +
           std::to_string(id) + "\"}}}\n";
}

/// Whether a response line carries request `id`'s echo (found without a JSON parser: the driver
/// must stay cheap; the text is unique to the request, so a stale or mixed-up answer fails).
bool echoes(const std::string& line, long id) {
    char expected[48];
    int length = std::snprintf(expected, sizeof expected, "hello-%ld\"", id);
    return line.find(std::string_view(expected, static_cast<std::size_t>(length))) != std::string::npos;
}

/// CPU time (user + system) the process has used so far, in seconds.
double cpu_seconds(pid_t pid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
    FILE* file = std::fopen(path, "r");
    if (!file) return 0;
    char content[1024];
    std::size_t n = std::fread(content, 1, sizeof content - 1, file);
    std::fclose(file);
    content[n] = '\0';
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const char* rest = std::strrchr(content, ')');
    if (!rest) return 0;
    unsigned long utime = 0, stime = 0;
    // state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    if (std::sscanf(rest + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return 0;
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
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
    std::vector<char> in_flight_flags(1 << 22, 0);  // by id modulo the size: answered at most once
    long wrong_answers = 0;
    std::string first_wrong;
    std::vector<double> latencies_us;
    latencies_us.reserve(1 << 22);
    long next_id = 1;
    long completed = 0;
    auto send_batch = [&](int count) {
        std::string batch;
        for (int i = 0; i < count; ++i) {
            long id = next_id++;
            sent_at[static_cast<std::size_t>(id) % sent_at.size()] = Clock::now();
            in_flight_flags[static_cast<std::size_t>(id) % in_flight_flags.size()] = 1;
            batch += request(id);
        }
        write_all(child.in, batch);
    };
    const auto warmup_end = Clock::now() + std::chrono::milliseconds(500);
    const auto end = warmup_end + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    Clock::time_point measure_start{};
    long measured_start_count = 0;
    double server_cpu_start = 0;
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
            long id = response_id(line);
            if (id <= 0) continue;  // a notification
            char& flag = in_flight_flags[static_cast<std::size_t>(id) % in_flight_flags.size()];
            if (id >= next_id || !flag || !echoes(line, id)) {
                if (wrong_answers++ == 0) first_wrong = line;
                continue;
            }
            flag = 0;
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
            server_cpu_start = cpu_seconds(child.pid);
        }
        if (now >= end) break;
        if (answered > 0) send_batch(answered);
    }
    double elapsed = std::chrono::duration<double>(Clock::now() - measure_start).count();
    double server_cpu = cpu_seconds(child.pid) - server_cpu_start;
    long calls = completed - measured_start_count;
    double rate = static_cast<double>(calls) / elapsed;
    if (wrong_answers > 0) {
        std::fprintf(stderr, "%ld answers were not the echo of a request in flight; the first: %s\n", wrong_answers,
                     first_wrong.c_str());
        return 1;
    }
    std::sort(latencies_us.begin(), latencies_us.end());
    auto percentile = [&](double p) {
        if (latencies_us.empty()) return 0.0;
        return latencies_us[std::min(latencies_us.size() - 1, static_cast<std::size_t>(p * latencies_us.size()))];
    };
    std::printf("{\"in_flight\":%d,\"requests_per_second\":%.0f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"requests\":%zu,"
                "\"server_cpu_us_per_call\":%.2f,\"server_cpu_cores\":%.2f}\n",
                in_flight, rate, percentile(0.50), percentile(0.99), latencies_us.size(),
                calls > 0 ? server_cpu * 1e6 / static_cast<double>(calls) : 0.0, server_cpu / elapsed);
    close(child.in);
    int status = 0;
    for (int i = 0; i < 100 && waitpid(child.pid, &status, WNOHANG) == 0; ++i) usleep(10000);
    kill(child.pid, SIGKILL);
    waitpid(child.pid, &status, 0);
    return 0;
}
