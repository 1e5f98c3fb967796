#include "mcp/transport/ChildProcessTransport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

extern char** environ;

namespace mcp {

bool is_basic_environment_variable(std::string_view name) {
    static constexpr std::string_view exact[] = {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG",
                                                 "LANGUAGE", "TZ", "TMPDIR", "COLORTERM", "DISPLAY", "WAYLAND_DISPLAY"};
    for (auto allowed : exact)
        if (name == allowed) return true;
    return name.starts_with("LC_") || name.starts_with("XDG_");
}

namespace asio = boost::asio;

struct ChildProcessTransport::Private {
    explicit Private(const asio::any_io_executor& executor) : stderr_pipe(executor), exit_watch(executor), exit_signal(executor) {}
    asio::posix::stream_descriptor stderr_pipe;
    asio::posix::stream_descriptor exit_watch;  ///< a pidfd: readable once the child exits
    asio::steady_timer exit_signal;             ///< cancelled when the child has exited
};

namespace {

struct Pipe {
    int read = -1;
    int write = -1;
};

Pipe make_pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
    return Pipe{fds[0], fds[1]};
}

int decode_status(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

}  // namespace

std::shared_ptr<ChildProcessTransport> ChildProcessTransport::spawn(asio::any_io_executor executor,
                                                                    ChildProcessOptions options) {
    std::shared_ptr<ChildProcessTransport> transport(new ChildProcessTransport(std::move(executor), std::move(options)));
    transport->start();
    return transport;
}

ChildProcessTransport::ChildProcessTransport(asio::any_io_executor executor, ChildProcessOptions options)
    : executor_(std::move(executor)), options_(std::move(options)), private_(std::make_unique<Private>(executor_)) {
    private_->exit_signal.expires_at(asio::steady_timer::time_point::max());
}

ChildProcessTransport::~ChildProcessTransport() {
    if (pid_ > 0 && !exit_code_) {
        // Last resort: never leave a child behind.
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

void ChildProcessTransport::start() {
    if (options_.command.empty()) throw std::invalid_argument("no command given to start the MCP server");
    Pipe to_child = make_pipe();
    Pipe from_child = make_pipe();
    Pipe errors = make_pipe();

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child.read, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child.write, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errors.write, STDERR_FILENO);
    if (options_.cwd) posix_spawn_file_actions_addchdir_np(&actions, options_.cwd->c_str());

    // The child gets a default signal disposition even if we ignore SIGPIPE.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> argv_storage{options_.command};
    argv_storage.insert(argv_storage.end(), options_.args.begin(), options_.args.end());
    std::vector<char*> argv;
    for (auto& a : argv_storage) argv.push_back(a.data());
    argv.push_back(nullptr);

    std::vector<std::string> env_storage;
    for (char** e = environ; *e; ++e) {
        std::string_view entry(*e);
        auto name = entry.substr(0, entry.find('='));
        if (options_.inherit == InheritedEnvironment::basic && !is_basic_environment_variable(name)) continue;
        if (!options_.env.contains(std::string(name))) env_storage.emplace_back(entry);
    }
    for (const auto& [name, value] : options_.env) env_storage.push_back(name + "=" + value);
    std::vector<char*> envp;
    for (auto& e : env_storage) envp.push_back(e.data());
    envp.push_back(nullptr);

    pid_t pid = -1;
    int rc = ::posix_spawnp(&pid, options_.command.c_str(), &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(to_child.read);
    ::close(from_child.write);
    ::close(errors.write);
    if (rc != 0) {
        ::close(to_child.write);
        ::close(from_child.read);
        ::close(errors.read);
        throw std::system_error(rc, std::generic_category(), "cannot start \"" + options_.command + "\"");
    }
    pid_ = pid;
    stream_ = std::make_shared<StreamTransport>(executor_, from_child.read, to_child.write, options_.stream);
    private_->stderr_pipe.assign(errors.read);
    int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd >= 0) private_->exit_watch.assign(pidfd);
    asio::co_spawn(executor_, read_stderr(), asio::detached);
    asio::co_spawn(executor_, watch_exit(), asio::detached);
}

asio::awaitable<void> ChildProcessTransport::read_stderr() {
    auto self = shared_from_this();  // alive while the child can still write
    asio::streambuf buffer;
    std::string prefix = "[" + options_.command + "] ";
    for (;;) {
        auto [ec, n] = co_await asio::async_read_until(private_->stderr_pipe, buffer, '\n',
                                                       asio::as_tuple(asio::use_awaitable));
        if (ec && buffer.size() == 0) break;
        std::size_t take = ec ? buffer.size() : n;
        std::string line(asio::buffers_begin(buffer.data()), asio::buffers_begin(buffer.data()) + take);
        buffer.consume(take);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        if (options_.on_stderr_line) {
            options_.on_stderr_line(line);
        } else {
            std::fprintf(stderr, "%s%s\n", prefix.c_str(), line.c_str());
        }
        if (ec) break;
    }
}

asio::awaitable<void> ChildProcessTransport::watch_exit() {
    auto self = shared_from_this();  // alive until the child is reaped
    int status = 0;
    if (private_->exit_watch.is_open()) {
        co_await private_->exit_watch.async_wait(asio::posix::stream_descriptor::wait_read,
                                                 asio::as_tuple(asio::use_awaitable));
        ::waitpid(pid_, &status, 0);
    } else {
        // No pidfd (old kernel): poll.
        asio::steady_timer tick(executor_);
        while (::waitpid(pid_, &status, WNOHANG) == 0) {
            tick.expires_after(std::chrono::milliseconds(20));
            co_await tick.async_wait(asio::as_tuple(asio::use_awaitable));
        }
    }
    exit_code_ = decode_status(status);
    private_->exit_signal.cancel();
    if (options_.on_exit) options_.on_exit(*exit_code_);
}

asio::awaitable<int> ChildProcessTransport::wait_for_exit() {
    while (!exit_code_) co_await private_->exit_signal.async_wait(asio::as_tuple(asio::use_awaitable));
    co_return *exit_code_;
}

void ChildProcessTransport::close() {
    if (shutting_down_) return;
    asio::co_spawn(executor_, shutdown(), asio::detached);
}

asio::awaitable<int> ChildProcessTransport::shutdown() {
    auto self = shared_from_this();  // close() runs this detached
    if (!shutting_down_) {
        shutting_down_ = true;
        stream_->close_write();  // EOF on the child's stdin: the polite request to exit
        asio::steady_timer deadline(executor_);
        for (int signal : {0, SIGTERM, SIGKILL}) {
            if (exit_code_) break;
            if (signal != 0) ::kill(pid_, signal);
            deadline.expires_after(options_.shutdown_step);
            // Wake when the child exits or the step's time is up, whichever is first.
            auto waiter = [&]() -> asio::awaitable<void> {
                while (!exit_code_ && std::chrono::steady_clock::now() < deadline.expiry()) {
                    asio::steady_timer poll(executor_, std::chrono::milliseconds(10));
                    co_await poll.async_wait(asio::as_tuple(asio::use_awaitable));
                }
            };
            co_await waiter();
        }
        stream_->close();
    }
    co_return co_await wait_for_exit();
}

}  // namespace mcp
