#pragma once
// Questions the host put to the user (approve this call? fill in this form?) waiting for the
// page's answer: a coroutine waits on an id until the answer comes, the time runs out or the
// turn is stopped. Single-threaded (the host's thread).

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace mcpkit::host {

class PendingAnswers {
public:
    explicit PendingAnswers(boost::asio::any_io_executor executor) : executor_(std::move(executor)) {}

    /// Waits for the answer to `id`; nothing on timeout or when cancelled.
    boost::asio::awaitable<std::optional<boost::json::object>> wait(const std::string& id,
                                                                   std::chrono::milliseconds timeout);
    /// Delivers an answer; false when nobody waits for `id` (answered already, or unknown).
    bool answer(const std::string& id, boost::json::object value);
    /// Ends every wait with nothing (the turn stopped, the session ended).
    void cancel_all();
    bool waiting(const std::string& id) const { return waits_.contains(id); }
    std::size_t size() const { return waits_.size(); }

private:
    struct Wait;
    boost::asio::any_io_executor executor_;
    std::map<std::string, std::shared_ptr<Wait>> waits_;
};

}  // namespace mcpkit::host
