// The authorization prompt for a person at a terminal (RFC 8252 §7.3): the redirect comes back to
// a listener on 127.0.0.1, the authorization URL is printed and, when there is a browser to open,
// opened.

#include "mcp/auth/OAuthClient.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

extern char** environ;

namespace mcp::auth {
namespace asio = boost::asio;
namespace web = boost::beast::http;
using asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
/// Tried first, so the redirect URI (and the registration that names it) stays the same from one
/// run to the next; any free port when it is taken.
constexpr unsigned short preferred_port = 33418;

bool set(const char* variable) {
    const char* value = std::getenv(variable);
    return value && *value;
}

/// Starts the browser on the URL without waiting for it; false when there is none to start.
bool open_browser(const std::string& url) {
    std::string program;
    if (const char* browser = std::getenv("BROWSER"); browser && *browser) program = browser;
    else if (set("DISPLAY") || set("WAYLAND_DISPLAY")) program = "xdg-open";
    else return false;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // The browser's chatter must not reach stdout, which may carry the protocol.
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv{program.data(), const_cast<char*>(url.c_str()), nullptr};
    pid_t pid = 0;
    int started = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (started != 0) return false;
    // Reaped in the background so it leaves no zombie.
    std::thread([pid] { waitpid(pid, nullptr, 0); }).detach();
    return true;
}

constexpr std::string_view done_page =
    "<!doctype html><meta charset=utf-8><title>mcpkit</title>"
    "<p style=\"font:16px system-ui;margin:3em\">Authorization received. You can close this tab and go back to "
    "mcpkit.</p>";

class LoopbackBrowserPrompt final : public AuthorizationPrompt {
public:
    LoopbackBrowserPrompt(asio::any_io_executor executor, std::chrono::seconds timeout)
        : executor_(executor), acceptor_(executor), timeout_(timeout) {}

    asio::awaitable<std::string> redirect_uri() override {
        open();
        co_return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/callback";
    }

    asio::awaitable<std::string> authorize(std::string authorization_url) override {
        open();
        std::fprintf(stderr, "\nmcpkit: this server needs your authorization. Open this URL in a browser:\n\n  %s\n\n",
                     authorization_url.c_str());
        if (open_browser(authorization_url)) std::fprintf(stderr, "mcpkit: (opened in your browser)\n");
        std::fprintf(stderr, "mcpkit: waiting for the authorization server to send your browser back to %s\n",
                     (co_await redirect_uri()).c_str());
        std::fflush(stderr);

        asio::steady_timer deadline(executor_, timeout_);
        auto expired = std::make_shared<bool>(false);
        deadline.async_wait([expired, this](boost::system::error_code ec) {
            if (ec) return;
            *expired = true;
            boost::system::error_code ignored;
            acceptor_.cancel(ignored);
        });
        while (true) {
            auto [ec, socket] = co_await acceptor_.async_accept(use_tuple);
            if (ec) {
                deadline.cancel();
                if (*expired)
                    throw AuthorizationError("no authorization came back within " + std::to_string(timeout_.count()) +
                                             " s; run the command again to retry");
                throw AuthorizationError("waiting for the authorization redirect failed: " + ec.message());
            }
            // A browser may open a connection it never uses (a preconnect): each gets a few
            // seconds to send its request, so it cannot hold the real redirect up.
            boost::beast::tcp_stream stream(std::move(socket));
            stream.expires_after(std::chrono::seconds(5));
            boost::beast::flat_buffer buffer;
            web::request<web::string_body> request;
            auto [read_error, read] = co_await web::async_read(stream, buffer, request, use_tuple);
            if (read_error) continue;
            std::string target(request.target());
            bool callback = request.method() == web::verb::get && target.starts_with("/callback");
            web::response<web::string_body> response{callback ? web::status::ok : web::status::not_found, 11};
            response.set(web::field::content_type, "text/html; charset=utf-8");
            response.set(web::field::connection, "close");
            response.body() = callback ? std::string(done_page) : std::string("not found");
            response.prepare_payload();
            co_await web::async_write(stream, response, use_tuple);
            if (!callback) continue;
            deadline.cancel();
            co_return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + target;
        }
    }

private:
    void open() {
        if (acceptor_.is_open()) return;
        auto address = asio::ip::make_address("127.0.0.1");
        for (unsigned short port : {preferred_port, static_cast<unsigned short>(0)}) {
            boost::system::error_code ec;
            acceptor_.open(tcp::v4(), ec);
            // The previous run's connections may linger in TIME_WAIT on the preferred port.
            if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
            if (!ec) acceptor_.bind({address, port}, ec);
            if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
            if (!ec) return;
            acceptor_.close(ec);
        }
        throw AuthorizationError("cannot listen on 127.0.0.1 for the authorization redirect");
    }

    asio::any_io_executor executor_;
    tcp::acceptor acceptor_;
    std::chrono::seconds timeout_;
};

}  // namespace

std::shared_ptr<AuthorizationPrompt> make_loopback_browser_prompt(asio::any_io_executor executor,
                                                                  std::chrono::seconds timeout) {
    return std::make_shared<LoopbackBrowserPrompt>(executor, timeout);
}

}  // namespace mcp::auth
