#pragma once
// The client side of stdio: start a server as a child process and talk to it over its
// stdin/stdout. Its stderr is read line by line and handed to a callback (default: copied to our
// stderr with a prefix). Closing follows the MCP spec: close the child's stdin, wait, SIGTERM,
// wait, SIGKILL.

#include "mcp/Export.hpp"
#include "mcp/transport/StreamTransport.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// Which of this process's environment variables a child sees (besides ChildProcessOptions::env).
enum class InheritedEnvironment {
    /// All of them: for a command the user typed, which expects their whole environment.
    everything,
    /// Only what a program needs to run and nothing that may be a secret: HOME, LOGNAME, PATH,
    /// SHELL, TERM, USER, LANG, LC_*, TZ, TMPDIR and XDG_*. A host that starts servers from a
    /// configuration file keeps its API keys (OPENAI_API_KEY, GITHUB_TOKEN…) out of them this way.
    basic,
};

/// Whether `name` is one of the variables InheritedEnvironment::basic passes on.
MCP_API bool is_basic_environment_variable(std::string_view name);

/// What to start as the server, in what environment, and how to treat its stderr and its exit.
struct MCP_API ChildProcessOptions {
    std::string command;  ///< looked up in PATH when it has no '/'
    std::vector<std::string> args;  ///< The arguments after the command (argv[1] onwards).
    /// Variables set for the child on top of the inherited ones.
    std::map<std::string, std::string> env;
    /// Which of our environment variables the child sees.
    InheritedEnvironment inherit = InheritedEnvironment::everything;
    std::optional<std::string> cwd;  ///< The child's working directory; ours when unset.
    /// Each line the child writes to stderr. Default: written to our stderr as "[command] line".
    std::function<void(std::string_view line)> on_stderr_line;
    /// Called once when the child exits, with its exit code (128+signal when killed).
    std::function<void(int exit_code)> on_exit;
    /// How long each shutdown step waits for the child to exit before the next, harsher one.
    std::chrono::milliseconds shutdown_step{std::chrono::seconds(2)};
    StreamTransportOptions stream;  ///< Framing options for the child's stdin/stdout.
};

/// The client side of stdio: a server started as a child process, spoken to over its stdin/stdout.
/// Closing follows the MCP spec: close the child's stdin, wait, SIGTERM, wait, SIGKILL.
class MCP_API ChildProcessTransport : public Transport, public std::enable_shared_from_this<ChildProcessTransport> {
public:
    /// Starts the child. Throws std::invalid_argument for an empty command, std::system_error naming
    /// the command when it cannot be started.
    static std::shared_ptr<ChildProcessTransport> spawn(boost::asio::any_io_executor executor,
                                                        ChildProcessOptions options);
    /// Kills (SIGKILL) and reaps a child still running, so none is left behind.
    ~ChildProcessTransport() override;

    boost::asio::awaitable<jsonrpc::ChannelRead> read() override { return stream_->read(); }
    void send(std::string_view frame, jsonrpc::FrameInfo context = {}) override { stream_->send(frame, context); }
    /// Starts the shutdown sequence; returns at once. Use shutdown() to wait for it.
    void close() override;
    boost::asio::any_io_executor executor() const override { return executor_; }

    /// Closes stdin, then escalates to SIGTERM and SIGKILL; returns the exit code.
    boost::asio::awaitable<int> shutdown();
    /// Waits until the child has exited; returns its exit code.
    boost::asio::awaitable<int> wait_for_exit();
    /// Whether the child has exited; its code is then what wait_for_exit() returns.
    bool exited() const { return exit_code_.has_value(); }
    /// The child's process id.
    int pid() const { return pid_; }

private:
    struct Private;
    ChildProcessTransport(boost::asio::any_io_executor executor, ChildProcessOptions options);
    void start();
    boost::asio::awaitable<void> read_stderr();
    boost::asio::awaitable<void> watch_exit();

    boost::asio::any_io_executor executor_;
    ChildProcessOptions options_;
    std::shared_ptr<StreamTransport> stream_;
    std::unique_ptr<Private> private_;
    int pid_ = -1;
    std::optional<int> exit_code_;
    bool shutting_down_ = false;
};

}  // namespace mcp
