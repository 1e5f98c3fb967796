#include "host/coordinator/SignInBroker.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/url/parse.hpp>

namespace mcpkit::host {
namespace asio = boost::asio;

struct SignInBroker::Waiting {
    explicit Waiting(asio::any_io_executor executor) : timer(std::move(executor)) {}
    std::string server;
    std::string url;
    asio::steady_timer timer;
    std::optional<std::string> returned;
};

namespace {

std::string query_value(std::string_view target, std::string_view key) {
    auto url = target.starts_with("http") ? boost::urls::parse_uri(target) : boost::urls::parse_origin_form(target);
    if (!url) return {};
    for (auto parameter : url->params())
        if (parameter.key == key) return parameter.value;
    return {};
}

std::string escaped(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string page(std::string_view title, const std::string& text) {
    return "<!doctype html><meta charset=utf-8><title>mcpkit host</title><body style=\"font-family:sans-serif;"
           "margin:3rem\"><h1>" + std::string(title) + "</h1><p>" + escaped(text) + "</p></body>";
}

class SignInPrompt : public mcp::auth::AuthorizationPrompt {
public:
    SignInPrompt(std::shared_ptr<SignInBroker> broker, std::string server, std::function<void()> on_waiting)
        : broker_(std::move(broker)), server_(std::move(server)), on_waiting_(std::move(on_waiting)) {}

    asio::awaitable<std::string> redirect_uri() override { co_return broker_->redirect_uri(); }

    asio::awaitable<std::string> authorize(std::string authorization_url) override {
        if (on_waiting_) on_waiting_();
        co_return co_await broker_->authorize(server_, std::move(authorization_url));
    }

private:
    std::shared_ptr<SignInBroker> broker_;
    std::string server_;
    std::function<void()> on_waiting_;
};

}  // namespace

SignInBroker::SignInBroker(asio::any_io_executor executor, std::chrono::milliseconds timeout)
    : executor_(std::move(executor)), timeout_(timeout) {}

asio::awaitable<std::string> SignInBroker::authorize(std::string server, std::string url) {
    auto self = shared_from_this();
    std::string state = query_value(url, "state");
    if (state.empty()) throw mcp::auth::AuthorizationError("the authorization URL carries no state");
    auto waiting = std::make_shared<Waiting>(executor_);
    waiting->server = server;
    waiting->url = url;
    waiting->timer.expires_after(timeout_);
    by_state_[state] = waiting;
    if (on_sign_in_needed) on_sign_in_needed(server, url);
    boost::system::error_code ec;
    co_await waiting->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    by_state_.erase(state);
    if (!waiting->returned)
        throw mcp::auth::AuthorizationError("nobody signed in to " + server + " within " +
                                            std::to_string(std::chrono::duration_cast<std::chrono::minutes>(timeout_).count()) +
                                            " minutes; reload mcp.json or restart the host to try again");
    co_return *waiting->returned;
}

std::string SignInBroker::complete(std::string_view target) {
    std::string state = query_value(target, "state");
    auto it = by_state_.find(state);
    if (state.empty() || it == by_state_.end())
        return page("Nothing to sign in to", "This sign-in is unknown or over (it may have timed out). Go back to the chat.");
    auto waiting = it->second;
    by_state_.erase(it);
    // libmcp checks code, state and iss; the host only hands the whole URL back.
    waiting->returned = redirect_uri_ + std::string(target.substr(target.find('?') == std::string_view::npos
                                                                      ? target.size()
                                                                      : target.find('?')));
    waiting->timer.cancel();
    if (!query_value(target, "error").empty())
        return page("Sign-in refused", "The authorization server said: " + query_value(target, "error") +
                                           ". Go back to the chat.");
    return page("Authorization received", "You are signed in to " + waiting->server +
                                              ". You can close this tab and go back to the chat.");
}

std::optional<std::string> SignInBroker::pending_url(const std::string& server) const {
    for (const auto& [state, waiting] : by_state_)
        if (waiting->server == server) return waiting->url;
    return std::nullopt;
}

std::shared_ptr<mcp::auth::AuthorizationPrompt> make_sign_in_prompt(std::shared_ptr<SignInBroker> broker,
                                                                    std::string server,
                                                                    std::function<void()> on_waiting) {
    return std::make_shared<SignInPrompt>(std::move(broker), std::move(server), std::move(on_waiting));
}

}  // namespace mcpkit::host
