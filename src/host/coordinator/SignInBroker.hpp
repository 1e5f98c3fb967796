#pragma once
// OAuth sign-in for protected remote servers, through the chat page instead of a terminal: the
// authorization URL is shown in every page (an `auth_required` frame and the server panel), the
// authorization server sends the browser back to this host's /oauth/callback, and the flow
// waiting in libmcp's OAuthClient gets that URL. One broker per host; one prompt per server.

#include <mcp/auth/OAuthClient.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/array.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace mcpkit::host {

class SignInBroker : public std::enable_shared_from_this<SignInBroker> {
public:
    SignInBroker(boost::asio::any_io_executor executor, std::chrono::milliseconds timeout = std::chrono::minutes(10));

    /// Where authorization servers send the browser back: the host's own /oauth/callback.
    void set_redirect_uri(std::string uri) { redirect_uri_ = std::move(uri); }
    const std::string& redirect_uri() const { return redirect_uri_; }

    /// Shows `url` for `server` and waits for the browser's return; the URL it came back to.
    /// Throws mcp::auth::AuthorizationError when nobody signs in within the timeout.
    boost::asio::awaitable<std::string> authorize(std::string server, std::string url);
    /// A request to /oauth/callback (its target with the query): the page to show the person.
    std::string complete(std::string_view target);
    /// The sign-in waiting for `server`, if any.
    std::optional<std::string> pending_url(const std::string& server) const;

    /// Told when a server needs the person to sign in.
    std::function<void(const std::string& server, const std::string& url)> on_sign_in_needed;

private:
    struct Waiting;
    boost::asio::any_io_executor executor_;
    std::chrono::milliseconds timeout_;
    std::string redirect_uri_;
    std::map<std::string, std::shared_ptr<Waiting>> by_state_;
};

/// The AuthorizationPrompt libmcp's OAuthClient drives for one server. `on_waiting` runs when
/// the person is asked (the server's start-up clock must stop then).
std::shared_ptr<mcp::auth::AuthorizationPrompt> make_sign_in_prompt(std::shared_ptr<SignInBroker> broker,
                                                                    std::string server,
                                                                    std::function<void()> on_waiting);

}  // namespace mcpkit::host
