#include "host/coordinator/ServerConnection.hpp"

#include <mcp/Version.hpp>
#include <mcp/transport/ChildProcessTransport.hpp>
#include <mcp/transport/StreamableHttpClientTransport.hpp>

#include <boost/algorithm/string/predicate.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <any>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {
constexpr std::size_t stderr_lines_kept = 40;
constexpr int max_restarts = 5;
}  // namespace

std::string_view server_state_name(ServerState state) {
    switch (state) {
    case ServerState::starting: return "starting";
    case ServerState::ready: return "ready";
    case ServerState::failed: return "failed";
    case ServerState::stopped: return "stopped";
    }
    return "stopped";
}

ServerConnection::ServerConnection(asio::any_io_executor executor, ServerEntry entry, ServerCallbacks callbacks)
    : executor_(executor), entry_(std::move(entry)), callbacks_(std::move(callbacks)), restart_timer_(executor) {}

ServerConnection::~ServerConnection() {
    if (transport_) transport_->close();
}

void ServerConnection::set_state(ServerState state, std::string error) {
    state_ = state;
    error_ = std::move(error);
    if (callbacks_.on_change) callbacks_.on_change();
}

std::string ServerConnection::with_stderr(std::string message) const {
    if (stderr_tail_.empty()) return message;
    message += "; its stderr ended with: ";
    std::size_t from = stderr_tail_.size() > 5 ? stderr_tail_.size() - 5 : 0;
    for (std::size_t i = from; i < stderr_tail_.size(); ++i) message += (i > from ? " | " : "") + stderr_tail_[i];
    return message;
}

std::shared_ptr<mcp::Transport> ServerConnection::make_transport() {
    std::weak_ptr<ServerConnection> weak = weak_from_this();
    std::uint64_t generation = generation_;
    if (entry_.transport == ServerTransport::stdio) {
        mcp::ChildProcessOptions options;
        options.command = entry_.command;
        options.args = entry_.args;
        options.env = entry_.env;
        // The host's API keys stay in the host: a server gets what a program needs, plus its own env.
        options.inherit = entry_.inherit_environment ? mcp::InheritedEnvironment::everything
                                                     : mcp::InheritedEnvironment::basic;
        options.cwd = entry_.cwd;
        // No polling for the server's next message: the host's one thread serves every page, and
        // a tool call's few microseconds of wake-up are not worth spinning for.
        options.stream.poll_before_wait = std::chrono::microseconds(0);
        options.on_stderr_line = [weak](std::string_view line) {
            auto self = weak.lock();
            if (!self) return;
            self->stderr_tail_.emplace_back(line.substr(0, 500));
            if (self->stderr_tail_.size() > stderr_lines_kept) self->stderr_tail_.pop_front();
        };
        options.on_exit = [weak, generation](int code) {
            auto self = weak.lock();
            if (!self || self->generation_ != generation || self->stopping_) return;
            self->connection_lost("the server exited with code " + std::to_string(code));
        };
        return mcp::ChildProcessTransport::spawn(executor_, std::move(options));
    }
    mcp::StreamableHttpClientOptions options;
    options.url = entry_.url;
    options.headers = entry_.headers;
    options.legacy_only = entry_.transport == ServerTransport::sse;
    options.log = [weak](std::string_view message) {
        if (auto self = weak.lock(); self && self->callbacks_.log)
            self->callbacks_.log(self->entry_.name + ": " + std::string(message));
    };
    bool own_authorization = std::any_of(entry_.headers.begin(), entry_.headers.end(), [](const auto& header) {
        return boost::algorithm::iequals(header.first, "Authorization");
    });
    if (callbacks_.sign_in && !own_authorization) {
        mcp::auth::OAuthClientOptions oauth;
        oauth.prompt = make_sign_in_prompt(callbacks_.sign_in, entry_.name, [weak] {
            if (auto self = weak.lock(); self && self->start_deadline_) self->start_deadline_->cancel();
        });
        oauth.store = callbacks_.tokens;
        oauth.client_name = "mcpkit host";
        oauth.log = options.log;
        options.authorization = mcp::auth::OAuthClient::create(executor_, entry_.url, std::move(oauth));
    }
    return mcp::StreamableHttpClientTransport::create(executor_, std::move(options));
}

asio::awaitable<void> ServerConnection::connect_once() {
    ++generation_;
    stderr_tail_.clear();
    std::uint64_t generation = generation_;
    std::weak_ptr<ServerConnection> weak = weak_from_this();
    mcp::ClientOptions options;
    options.info = {"mcpkit-host", MCP_VERSION_STRING};
    options.request_timeout = entry_.call_timeout;
    // A tool that runs only as a task can be called, and a long one survives as a task the
    // client polls (the timeout then applies to each poll, not to the work).
    options.tasks = true;
    std::string name = entry_.name;
    // The coordinator names the session as each call's caller (ToolCallOptions::session_id).
    auto calling_session = [](const mcp::ServerRequestContext& context) {
        const auto* id = std::any_cast<std::string>(&context.caller);
        return id ? *id : std::string();
    };
    if (callbacks_.on_sampling)
        options.on_sampling = [callbacks = callbacks_, name, calling_session](const json::object& params,
                                                                             const mcp::ServerRequestContext& context) {
            return callbacks.on_sampling(name, params, calling_session(context));
        };
    if (callbacks_.on_elicitation)
        options.on_elicitation = [callbacks = callbacks_, name, calling_session](const json::object& params,
                                                                                const mcp::ServerRequestContext& context) {
            return callbacks.on_elicitation(name, params, calling_session(context));
        };
    options.capabilities = {{"elicitation", {{"form", json::object{}}, {"url", json::object{}}}},
                            // MCP Apps (SEP-1865): the page renders views of this type.
                            {"extensions", {{"io.modelcontextprotocol/ui", {{"mimeTypes", json::array{"text/html;profile=mcp-app"}}}}}}};
    if (!callbacks_.roots.empty()) options.roots = callbacks_.roots;
    options.on_notification = [weak, generation](std::string_view method, const json::value& params) {
        auto self = weak.lock();
        if (!self || self->generation_ != generation) return;
        if (method == "notifications/tools/list_changed" || method == "notifications/prompts/list_changed" ||
            method == "notifications/resources/list_changed") {
            self->schedule_refresh();
            return;
        }
        if (self->callbacks_.on_notification) self->callbacks_.on_notification(self->entry_.name, method, params);
    };
    client_ = std::make_shared<mcp::Client>(std::move(options));
    transport_ = make_transport();

    // The start-up budget covers starting, the handshake and the first lists: past it the
    // transport is closed, which fails whatever step was waiting.
    auto deadline = std::make_shared<asio::steady_timer>(executor_, entry_.start_timeout);
    start_deadline_ = deadline;
    auto timed_out = std::make_shared<bool>(false);
    deadline->async_wait([transport = transport_, timed_out](boost::system::error_code ec) {
        if (ec) return;
        *timed_out = true;
        transport->close();
    });
    std::string failure;
    try {
        auto client = client_;  // alive across the handshake whatever happens to client_
        co_await client->connect(transport_);
        co_await refresh_lists();
    } catch (const std::exception& e) {
        failure = e.what();
    }
    deadline->cancel();
    if (generation != generation_) co_return;
    if (*timed_out)
        failure = "did not start within " + std::to_string(entry_.start_timeout.count()) +
                  " ms (raise \"initTimeout\" in mcp.json if it is only slow)";
    if (!failure.empty()) {
        transport_->close();
        client_.reset();
        set_state(ServerState::failed, with_stderr(failure));
        co_return;
    }
    restarts_ = 0;
    set_state(ServerState::ready);
}

void ServerConnection::schedule_refresh() {
    refresh_again_ = true;
    if (refreshing_) return;
    refreshing_ = true;
    asio::co_spawn(executor_, refresh_until_settled(), asio::detached);
}

asio::awaitable<void> ServerConnection::refresh_until_settled() {
    auto self = shared_from_this();
    while (refresh_again_) {
        refresh_again_ = false;
        try {
            co_await refresh_lists();
        } catch (const std::exception& e) {
            // The lists offered so far stay; a dead connection is noticed by the next call.
            if (callbacks_.log) callbacks_.log(entry_.name + ": could not refresh the lists: " + e.what());
        }
    }
    refreshing_ = false;
}

asio::awaitable<void> ServerConnection::refresh_lists() {
    // A refresh may outlive the connection it was started for.
    auto self = shared_from_this();
    std::shared_ptr<mcp::Client> client = client_;
    if (!client) co_return;
    json::object capabilities = client->server_capabilities();  // a copy: the lists are awaited
    std::vector<mcp::Tool> tools;
    std::vector<mcp::Prompt> prompts;
    std::vector<mcp::Resource> resources;
    if (capabilities.contains("tools")) tools = co_await client->list_tools();
    if (capabilities.contains("prompts")) prompts = co_await client->list_prompts();
    if (capabilities.contains("resources")) resources = co_await client->list_resources();
    if (client != client_) co_return;
    std::vector<mcp::Tool> offered;
    for (auto& tool : tools) {
        const auto& allowed = entry_.allowed_tools;
        const auto& excluded = entry_.excluded_tools;
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), tool.name) == allowed.end()) continue;
        if (std::find(excluded.begin(), excluded.end(), tool.name) != excluded.end()) continue;
        offered.push_back(std::move(tool));
    }
    tools_ = std::move(offered);
    prompts_ = std::move(prompts);
    resources_ = std::move(resources);
    if (state_ == ServerState::ready && callbacks_.on_change) callbacks_.on_change();
}

asio::awaitable<void> ServerConnection::start() {
    auto self = shared_from_this();
    if (starting_) {
        co_await ensure_started();
        co_return;
    }
    stopping_ = false;
    if (!entry_.problem.empty()) {
        set_state(ServerState::failed, entry_.problem);
        co_return;
    }
    if (entry_.disabled) {
        set_state(ServerState::stopped, "disabled in mcp.json");
        co_return;
    }
    starting_ = true;
    set_state(ServerState::starting);
    try {
        co_await connect_once();
    } catch (const std::exception& e) {
        set_state(ServerState::failed, with_stderr(e.what()));
    }
    starting_ = false;
    for (auto& waiter : start_waiters_) waiter->cancel();
    start_waiters_.clear();
    if (state_ == ServerState::failed) schedule_restart();
}

asio::awaitable<void> ServerConnection::ensure_started() {
    auto self = shared_from_this();
    if (starting_) {
        auto waiter = std::make_shared<asio::steady_timer>(executor_, asio::steady_timer::time_point::max());
        start_waiters_.push_back(waiter);
        boost::system::error_code ec;
        co_await waiter->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        co_return;
    }
    if (state_ == ServerState::failed && !stopping_ && entry_.problem.empty()) {
        restart_timer_.cancel();
        co_await start();
    }
}

asio::awaitable<void> ServerConnection::stop() {
    auto self = shared_from_this();
    stopping_ = true;
    ++generation_;
    restart_timer_.cancel();
    if (auto client = client_) {
        try {
            co_await client->close();
        } catch (const std::exception&) {
        }
    }
    client_.reset();
    transport_.reset();
    set_state(ServerState::stopped);
}

asio::awaitable<std::string> ServerConnection::lost(std::string why) {
    auto self = shared_from_this();
    if (auto child = std::dynamic_pointer_cast<mcp::ChildProcessTransport>(transport_); child && !child->exited()) {
        asio::steady_timer deadline(executor_, std::chrono::milliseconds(1000));
        deadline.async_wait([child](boost::system::error_code ec) {
            if (!ec) child->close();
        });
        try {
            co_await child->wait_for_exit();
        } catch (const std::exception&) {
        }
        deadline.cancel();
    }
    connection_lost(why);
    co_return error_.empty() ? why : error_;
}

void ServerConnection::connection_lost(const std::string& why) {
    if (stopping_ || state_ != ServerState::ready) return;
    if (transport_) transport_->close();
    set_state(ServerState::failed, with_stderr(why));
    schedule_restart();
}

void ServerConnection::schedule_restart() {
    if (stopping_ || !entry_.problem.empty() || restarts_ >= max_restarts) return;
    // 1 s, 2 s, 4 s … up to 30 s between attempts.
    auto delay = std::chrono::seconds(std::min(30, 1 << std::min(restarts_, 5)));
    ++restarts_;
    restart_timer_.expires_after(delay);
    std::weak_ptr<ServerConnection> weak = weak_from_this();
    restart_timer_.async_wait([weak](boost::system::error_code ec) {
        auto self = weak.lock();
        if (ec || !self || self->stopping_ || self->state_ != ServerState::failed) return;
        asio::co_spawn(self->executor_, self->start(), asio::detached);
    });
}

}  // namespace mcpkit::host
