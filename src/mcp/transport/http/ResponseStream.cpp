#include "transport/http/ResponseStream.hpp"

#include "mcp/transport/SseWriter.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::http {
namespace asio = boost::asio;

ResponseStream::ResponseStream(asio::io_context::executor_type connection_executor)
    : executor_(connection_executor), timer_(connection_executor) {}

void ResponseStream::set_session_id(std::string session_id) {
    std::lock_guard lock(mutex_);
    session_id_ = std::move(session_id);
}

void ResponseStream::respond(int status, std::string body) {
    std::lock_guard lock(mutex_);
    if (kind_ != Kind::undecided || finished_) return;
    kind_ = Kind::json;
    status_ = status;
    pending_ = std::move(body);
    finished_ = true;
    wake_locked();
}

void ResponseStream::refuse(int status, std::string body, std::string www_authenticate) {
    {
        std::lock_guard lock(mutex_);
        if (kind_ != Kind::undecided || finished_) return;
        www_authenticate_ = std::move(www_authenticate);
    }
    respond(status, std::move(body));
}

void ResponseStream::start_events() {
    std::lock_guard lock(mutex_);
    if (kind_ != Kind::undecided || finished_) return;
    kind_ = Kind::sse;
    status_ = 200;
    wake_locked();
}

void ResponseStream::push_event(std::string_view id, std::string_view data, std::chrono::milliseconds retry) {
    std::lock_guard lock(mutex_);
    if (kind_ != Kind::sse || finished_ || client_gone_) return;
    // One event alone is always taken: giving it up would only make the client ask for it again.
    if (!pending_.empty() && pending_.size() + data.size() > max_unsent_bytes) {
        pending_.clear();
        client_gone_ = true;
        wake_locked();
        return;
    }
    // An event with no data primes the stream (its id, for resumption): no event type then.
    append_sse_event(pending_, data, data.empty() ? std::string_view() : std::string_view("message"), id, retry);
    wake_locked();
}

void ResponseStream::finish() {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    if (kind_ == Kind::undecided) {
        kind_ = Kind::json;
        status_ = 202;
    }
    finished_ = true;
    wake_locked();
}

bool ResponseStream::client_gone() const {
    std::lock_guard lock(mutex_);
    return client_gone_;
}

void ResponseStream::mark_client_gone() {
    std::lock_guard lock(mutex_);
    client_gone_ = true;
    wake_locked();
}

ResponseStream::Kind ResponseStream::kind() const {
    std::lock_guard lock(mutex_);
    return kind_;
}

void ResponseStream::wake_locked() {
    if (!waiting_) return;
    waiting_ = false;
    if (executor_.running_in_this_thread()) {
        timer_.cancel();
    } else {
        // The timer belongs to the connection's thread; keep the stream alive until the post runs.
        asio::post(executor_, [self = shared_from_this()] { self->timer_.cancel(); });
    }
}

asio::awaitable<ResponseStream::Update> ResponseStream::next(std::chrono::milliseconds timeout) {
    Update update;
    bool waited = false;
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            bool ready = kind_ != Kind::undecided && (!head_written_ || !pending_.empty() ||
                                                      (finished_ && !finish_reported_));
            if (ready || client_gone_) {
                update.kind = kind_;
                update.status = status_;
                update.head_pending = !head_written_;
                if (update.head_pending) {
                    update.session_id = session_id_;
                    update.www_authenticate = www_authenticate_;
                }
                update.body = std::move(pending_);
                pending_.clear();
                update.finished = finished_ || client_gone_;
                head_written_ = kind_ != Kind::undecided;
                finish_reported_ = update.finished;
                co_return update;
            }
            if (waited) {
                update.timed_out = true;
                update.kind = kind_;
                co_return update;
            }
            waiting_ = true;
        }
        timer_.expires_after(timeout);
        co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
        {
            std::lock_guard lock(mutex_);
            // Woken by a push (waiting_ cleared), or the wait ran out.
            waited = waiting_;
            waiting_ = false;
        }
    }
}

}  // namespace mcp::http
