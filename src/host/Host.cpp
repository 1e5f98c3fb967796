#include "host/Host.hpp"

#include "host/chat/SessionManager.hpp"
#include "host/coordinator/McpCoordinator.hpp"
#include "host/coordinator/SignInBroker.hpp"
#include "host/store/ChatStore.hpp"
#include "host/web/PageFrames.hpp"
#include "host/web/PageProtocol.hpp"
#include "host/web/WebServer.hpp"

#include <mcp/Version.hpp>
#include <mcp/Error.hpp>
#include <mcp/auth/TokenStore.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdio>
#include <filesystem>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

class HostApplication {
public:
    HostApplication(HostOptions options, std::unique_ptr<ChatStore> store, std::unique_ptr<LanguageModel> model)
        : options_(std::move(options)),
          log_(options_.log_json, options_.log_level),
          sign_in_(std::make_shared<SignInBroker>(io_.get_executor())),
          store_(std::move(store)),
          model_(std::move(model)),
          coordinator_(io_.get_executor(), server_callbacks()),
          sessions_(io_.get_executor(), *store_),
          tools_(coordinator_, frames_, log_, options_.conversation.approval_timeout),
          conversation_(coordinator_, model_.get(), *store_, log_, options_.conversation, frames_, tools_),
          apps_(coordinator_, log_),
          pages_(io_.get_executor(), sessions_, conversation_, coordinator_, tools_, frames_, log_),
          web_(io_, web_options()),
          signals_(io_, SIGINT, SIGTERM),
          reload_signal_(io_, SIGHUP),
          config_timer_(io_),
          cleanup_timer_(io_) {
        pages_.llm_help =
            "No LLM is configured. Start the host with GEMINI_API_KEY set (Gemini), ANTHROPIC_API_KEY (Claude), or "
            "OPENAI_API_KEY and OPENAI_BASE_URL (OpenAI or any compatible server: llama.cpp, Ollama, vLLM). "
            "Meanwhile, call tools by hand from the server panel.";
        tools_.set_apps(&apps_);
        tools_.keep_approvals_in(*store_);
        pages_.apps = &apps_;
    }

    int run(McpConfig config) {
        web_.start();
        sign_in_->set_redirect_uri(web_.base_url() + "/oauth/callback");
        sign_in_->on_sign_in_needed = [this](const std::string& server, const std::string& url) {
            log_.info("MCP", "sign_in_needed", {{"server", server}});
            Frame frame = PageFrames::auth_required(server, url);
            for (const auto& [id, session] : sessions_.sessions()) session->broadcast(frame);
            servers_changed();
        };
        std::printf("mcpkit host: open %s\n", web_.page_url().c_str());
        std::fflush(stdout);
        // The token is in the line above, meant for the person; logs may be collected and shared.
        log_.info("Host", "listening",
                  {{"url", web_.base_url()}, {"store", store_->description()},
                   {"llm", model_ ? model_->settings().provider + " " + model_->settings().model : "none"}});
        asio::co_spawn(io_, coordinator_.start(std::move(config)), asio::detached);
        watch_signals();
        watch_config();
        schedule_cleanup();
        io_.run();
        return 0;
    }

private:
    ServerCallbacks server_callbacks() {
        ServerCallbacks callbacks;
        callbacks.on_change = [this] { servers_changed(); };
        callbacks.log = [this](std::string_view message) { log_.warn("MCP", "server_log", {{"message", message}}); };
        callbacks.on_sampling = [this](const std::string& server, const json::object& params, const std::string& session) {
            return sample(server, params, session);
        };
        callbacks.on_elicitation = [this](const std::string& server, const json::object& params,
                                          const std::string& session) { return elicit(server, params, session); };
        callbacks.on_notification = [this](const std::string& server, std::string_view method, const json::value& params) {
            if (method == "notifications/message")
                log_.info("MCP", "server_message", {{"server", server}, {"params", params}});
        };
        callbacks.sign_in = sign_in_;
        try {
            callbacks.tokens = mcp::auth::make_file_token_store(mcp::auth::default_token_file());
        } catch (const std::exception& e) {
            log_.warn("MCP", "token_store_unavailable", {{"error", e.what()}, {"kept", "in memory"}});
        }
        for (const auto& root : options_.roots) {
            std::string path = std::filesystem::absolute(root).lexically_normal().string();
            callbacks.roots.push_back({"file://" + path, std::filesystem::path(path).filename().string()});
        }
        return callbacks;
    }

    asio::awaitable<json::object> sample(std::string server, json::object params, std::string calling_session) {
        auto session = sessions_.session_for_server(server, calling_session);
        if (!session) throw mcp::Error(-1, "no chat is open to approve the sampling request");
        co_return co_await conversation_.sample(session, std::move(server), std::move(params));
    }

    asio::awaitable<json::object> elicit(std::string server, json::object params, std::string calling_session) {
        auto session = sessions_.session_for_server(server, calling_session);
        if (!session) co_return json::object{{"action", "decline"}};
        co_return co_await conversation_.elicit(session, std::move(server), std::move(params));
    }

    WebServerOptions web_options() {
        WebServerOptions options;
        options.host = options_.http_host;
        options.port = options_.http_port;
        options.token = options_.token;
        options.allowed_hosts = options_.allowed_hosts;
        options.websocket.idle_timeout = 2 * options_.heartbeat;
        options.health = [this] { return health(); };
        options.app_view = [this](const std::string& id) -> std::optional<std::pair<std::string, std::string>> {
            const AppView* view = apps_.view(id);
            if (!view) return std::nullopt;
            return std::make_pair(view->html, view->content_security_policy);
        };
        options.on_oauth_callback = [this](std::string_view target) {
            std::string page = sign_in_->complete(target);
            servers_changed();
            return page;
        };
        options.export_conversation = [this](const std::string& id,
                                             std::string_view format) -> std::optional<ExportedConversation> {
            auto conversation = sessions_.snapshot(id);
            if (!conversation) return std::nullopt;
            return export_conversation(*conversation, format);
        };
        options.on_websocket = [this](const std::shared_ptr<WebSocketClient>& client, const std::string& session_id) {
            pages_.open(client, session_id);
        };
        options.log = [this](std::string_view message) { log_.warn("WebSocket", "refused", {{"message", message}}); };
        return options;
    }

    // Several servers change at once at start-up: one frame per burst.
    void servers_changed() {
        if (servers_frame_pending_) return;
        servers_frame_pending_ = true;
        asio::post(io_, [this] {
            servers_frame_pending_ = false;
            pages_.broadcast_servers();
        });
    }

    json::object health() {
        json::array servers;
        for (const auto& server : coordinator_.servers()) {
            json::object item{{"name", server->name()},
                              {"state", server_state_name(server->state())},
                              {"tools", server->tools().size()}};
            if (!server->error().empty()) item["error"] = server->error();
            servers.push_back(std::move(item));
        }
        std::size_t pages = 0;
        for (const auto& [id, session] : sessions_.sessions()) pages += session->clients();
        json::object health{{"status", "ok"},
                            {"version", MCP_VERSION_STRING},
                            {"servers", std::move(servers)},
                            {"sessions", {{"inMemory", sessions_.sessions().size()}, {"pages", pages}}},
                            {"store", store_->description()},
                            {"tools", coordinator_.metrics()}};
        if (model_) health["llm"] = {{"provider", model_->settings().provider}, {"model", model_->settings().model}};
        else health["llm"] = nullptr;
        return health;
    }

    void watch_signals() {
        signals_.async_wait([this](boost::system::error_code ec, int) {
            if (ec) return;
            log_.info("Host", "stopping");
            web_.stop();
            for (const auto& [id, session] : sessions_.sessions()) conversation_.stop(*session);
            asio::co_spawn(io_, coordinator_.shutdown(), [this](std::exception_ptr) { io_.stop(); });
        });
        watch_reload_signal();
    }

    void watch_reload_signal() {
        reload_signal_.async_wait([this](boost::system::error_code ec, int) {
            if (ec) return;
            reload("SIGHUP");
            watch_reload_signal();
        });
    }

    std::filesystem::file_time_type config_time() const {
        std::error_code ec;
        auto time = std::filesystem::last_write_time(options_.config_path, ec);
        return ec ? std::filesystem::file_time_type{} : time;
    }

    void watch_config() {
        if (options_.config_path.empty()) return;
        config_time_ = config_time();
        poll_config();
    }

    void poll_config() {
        config_timer_.expires_after(options_.config_poll);
        config_timer_.async_wait([this](boost::system::error_code ec) {
            if (ec) return;
            if (auto time = config_time(); time != config_time_) {
                config_time_ = time;
                reload("file changed");
            }
            poll_config();
        });
    }

    void reload(std::string_view why) {
        if (options_.config_path.empty()) return;
        try {
            McpConfig config = load_mcp_config(options_.config_path, process_environment());
            log_.info("Host", "config_reloaded", {{"reason", why}, {"servers", config.servers.size()}});
            asio::co_spawn(io_, coordinator_.reload(std::move(config)), asio::detached);
        } catch (const std::exception& e) {
            // A half-edited file must not take the running servers down.
            log_.error("Host", "config_refused", {{"reason", why}, {"error", e.what()}, {"kept", "the previous configuration"}});
        }
    }

    void schedule_cleanup() {
        cleanup_timer_.expires_after(std::chrono::minutes(1));
        cleanup_timer_.async_wait([this](boost::system::error_code ec) {
            if (ec) return;
            std::size_t evicted = sessions_.cleanup(options_.memory_idle, options_.store_idle);
            if (model_) model_->close_idle_connections();
            if (evicted) log_.info("Session", "evicted_idle", {{"sessions", evicted}});
            schedule_cleanup();
        });
    }

    asio::io_context io_{1};
    HostOptions options_;
    HostLog log_;
    std::shared_ptr<SignInBroker> sign_in_;
    std::unique_ptr<ChatStore> store_;
    std::unique_ptr<LanguageModel> model_;
    McpCoordinator coordinator_;
    SessionManager sessions_;
    PageFrames frames_;
    ToolRunner tools_;
    Conversation conversation_;
    McpApps apps_;
    PageProtocol pages_;
    WebServer web_;
    asio::signal_set signals_;
    asio::signal_set reload_signal_;
    asio::steady_timer config_timer_;
    asio::steady_timer cleanup_timer_;
    std::filesystem::file_time_type config_time_;
    bool servers_frame_pending_ = false;
};

}  // namespace

int run_host(HostOptions options) {
    McpConfig config;
    std::unique_ptr<ChatStore> store;
    std::unique_ptr<LanguageModel> model;
    try {
        if (!options.config_path.empty()) config = load_mcp_config(options.config_path, process_environment());
        store = open_chat_store(options.store);
        if (options.model) model = make_language_model(*options.model);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcpkit host: %s\n", e.what());
        return 2;
    }
    for (const auto& field : config.ignored_fields)
        std::fprintf(stderr, "mcpkit host: %s: not a field mcpkit reads; ignored\n", field.c_str());
    try {
        HostApplication host(std::move(options), std::move(store), std::move(model));
        return host.run(std::move(config));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcpkit host: %s\n", e.what());
        return 1;
    }
}

}  // namespace mcpkit::host
