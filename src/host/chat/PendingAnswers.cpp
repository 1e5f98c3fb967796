#include "host/chat/PendingAnswers.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcpkit::host {
namespace asio = boost::asio;

struct PendingAnswers::Wait {
    explicit Wait(asio::any_io_executor executor) : timer(std::move(executor)) {}
    asio::steady_timer timer;
    std::optional<boost::json::object> value;
};

asio::awaitable<std::optional<boost::json::object>> PendingAnswers::wait(const std::string& id,
                                                                        std::chrono::milliseconds timeout) {
    auto wait = std::make_shared<Wait>(executor_);
    wait->timer.expires_after(timeout);
    waits_[id] = wait;
    boost::system::error_code ec;
    co_await wait->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (auto it = waits_.find(id); it != waits_.end() && it->second == wait) waits_.erase(it);
    co_return std::move(wait->value);
}

bool PendingAnswers::answer(const std::string& id, boost::json::object value) {
    auto it = waits_.find(id);
    if (it == waits_.end()) return false;
    auto wait = it->second;
    waits_.erase(it);
    wait->value = std::move(value);
    wait->timer.cancel();
    return true;
}

void PendingAnswers::cancel_all() {
    auto waits = std::move(waits_);
    waits_.clear();
    for (auto& [id, wait] : waits) wait->timer.cancel();
}

}  // namespace mcpkit::host
