#include "devconsole/StdioBridge.hpp"

#include "devconsole/McpSecret.hpp"

#include "mcp/jsonrpc/Codec.hpp"
#include "mcp/transport/HttpClient.hpp"
#include "mcp/transport/StreamTransport.hpp"
#include "mcp/transport/StreamableHttpClientTransport.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>

namespace mcpkit::devconsole {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

enum class DaemonState { ours, absent, foreign };

/// The user id owning the socket that listens on 127.0.0.1:`port` (or on the IPv6 loopback or a
/// wildcard), from /proc/net/tcp{,6}; nothing when none is found. Another local user could listen
/// there first and answer /health as the daemon would, to be handed the /mcp secret.
std::optional<uid_t> listener_uid(std::uint16_t port) {
    char wanted_port[8];
    std::snprintf(wanted_port, sizeof wanted_port, ":%04X", port);
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::FILE* file = std::fopen(table, "re");
        if (!file) continue;
        char line[512];
        std::optional<uid_t> found;
        while (!found && std::fgets(line, sizeof line, file)) {
            char local[64], remote[64], state[8];
            unsigned long uid = 0;
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ...
            if (std::sscanf(line, " %*s %63s %63s %7s %*s %*s %*s %lu", local, remote, state, &uid) != 4) continue;
            std::string_view address(local);
            if (std::string_view(state) != "0A" || !address.ends_with(wanted_port)) continue;  // 0A: LISTEN
            found = static_cast<uid_t>(uid);
        }
        std::fclose(file);
        if (found) return found;
    }
    return std::nullopt;
}

asio::awaitable<DaemonState> probe(mcp::HttpClient& http, const std::string& base) {
    try {
        mcp::HttpRequest request;  // built here: g++ 12 mishandles a braced temporary inside co_await
        request.url = base + "/health";
        auto response = co_await http.send(request);
        boost::system::error_code ec;
        auto health = json::parse(response.body, ec);
        if (response.status == 200 && !ec && health.is_object())
            if (auto* name = health.get_object().if_contains("name"); name && *name == "mcpkit-devconsole")
                co_return DaemonState::ours;
        co_return DaemonState::foreign;
    } catch (const mcp::HttpError&) {
        co_return DaemonState::absent;
    }
}

/// Starts a daemon in a session of its own, so that it outlives this bridge and its assistant.
bool start_daemon(const StdioBridgeOptions& options) {
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(options.log_file).parent_path(), ignored);
    // Everything the child needs is made before fork(): after it, only async-signal-safe calls.
    std::string port = std::to_string(options.port);
    pid_t child = fork();
    if (child < 0) return false;
    if (child == 0) {
        // The intermediate child starts a new session and forks again: the daemon is no one's child.
        setsid();
        if (fork() != 0) _exit(0);
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        int log = open(options.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        dup2(null, 0);
        dup2(null, 1);
        dup2(log >= 0 ? log : null, 2);
        if (null > 2) close(null);
        if (log > 2) close(log);
        execl(options.executable.c_str(), options.executable.c_str(), "devconsole", "--port", port.c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return true;
}

asio::awaitable<void> forward(std::shared_ptr<mcp::Transport> from, std::shared_ptr<mcp::Transport> to) {
    std::string frame;
    for (;;) {
        auto read = co_await from->read();
        if (read.kind == mcp::jsonrpc::ChannelRead::Kind::end_of_stream) break;
        if (read.kind == mcp::jsonrpc::ChannelRead::Kind::message) {
            to->send(read.text);
        } else if (read.kind == mcp::jsonrpc::ChannelRead::Kind::decoded && read.decoded) {
            auto send_item = [&](const mcp::jsonrpc::DecodedItem& item) {
                if (auto* message = std::get_if<mcp::jsonrpc::Message>(&item)) {
                    frame.clear();
                    mcp::jsonrpc::encode(frame, *message);
                    to->send(frame);
                }
            };
            if (read.decoded->is_batch) {
                for (const auto& item : read.decoded->batch) send_item(item);
            } else {
                send_item(read.decoded->single);
            }
        }
    }
    to->close();
}

asio::awaitable<int> bridge(const StdioBridgeOptions& options) {
    auto executor = co_await asio::this_coro::executor;
    std::string base = "http://127.0.0.1:" + std::to_string(options.port);
    mcp::HttpClientOptions http_options;
    http_options.proxy = std::string();  // loopback: never through a proxy
    http_options.timeout = std::chrono::seconds(2);
    http_options.max_redirects = 0;
    mcp::HttpClient http(executor, http_options);
    auto state = co_await probe(http, base);
    if (state == DaemonState::foreign) {
        std::fprintf(stderr, "mcpkit devconsole --stdio: port %u is taken by something that is not mcpkit devconsole; "
                             "pass --port to use another\n", options.port);
        co_return 1;
    }
    if (state == DaemonState::absent) {
        std::fprintf(stderr, "mcpkit devconsole --stdio: no daemon on port %u; starting one (log: %s)\n", options.port,
                     options.log_file.c_str());
        if (!start_daemon(options)) {
            std::fprintf(stderr, "mcpkit devconsole --stdio: could not start the daemon\n");
            co_return 1;
        }
        asio::steady_timer pause(executor);
        for (int attempt = 0; attempt < 100 && state != DaemonState::ours; ++attempt) {
            pause.expires_after(std::chrono::milliseconds(100));
            co_await pause.async_wait(asio::use_awaitable);
            state = co_await probe(http, base);
        }
        if (state != DaemonState::ours) {
            std::fprintf(stderr, "mcpkit devconsole --stdio: the daemon did not answer within 10 s; see %s\n",
                         options.log_file.c_str());
            co_return 1;
        }
    }
    // Ours by its answer; ours by its owner too, before it is handed the secret.
    if (auto owner = listener_uid(options.port); owner && *owner != ::geteuid()) {
        std::fprintf(stderr,
                     "mcpkit devconsole --stdio: port %u is held by another user's process (uid %u), which answers "
                     "as the daemon would; not sending it this user's secret. Pass --port to use another\n",
                     options.port, static_cast<unsigned>(*owner));
        co_return 1;
    }
    mcp::StreamableHttpClientOptions client;
    client.url = base + "/mcp";
    client.proxy = std::string();
    client.http_timeout = std::chrono::seconds(60);  // beyond the tools' 15 s wait
    // The daemon made (or read) its /mcp secret before it listened: it is in the file by now.
    if (auto secret = existing_mcp_secret(options.port); !secret.empty())
        client.headers["Authorization"] = "Bearer " + secret;
    auto remote = mcp::StreamableHttpClientTransport::create(executor, std::move(client));
    auto local = std::make_shared<mcp::StreamTransport>(executor, dup(0), dup(1));
    asio::co_spawn(executor, forward(remote, local), asio::detached);
    co_await forward(local, remote);
    co_return 0;
}

}  // namespace

int run_stdio_bridge(const StdioBridgeOptions& options) {
    asio::io_context io(1);
    int code = 1;
    asio::co_spawn(io, bridge(options), [&](std::exception_ptr error, int result) {
        if (error) {
            try {
                std::rethrow_exception(error);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "mcpkit devconsole --stdio: %s\n", e.what());
            }
            code = 1;
        } else {
            code = result;
        }
        io.stop();
    });
    io.run();
    return code;
}

}  // namespace mcpkit::devconsole
