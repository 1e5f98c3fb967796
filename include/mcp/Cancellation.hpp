#pragma once
// Cooperative cancellation shared between the code that asks for it (a peer's
// notifications/cancelled, a caller giving up) and the code doing the work.
//
// A token may be read from any thread (handlers on the worker pool poll `cancelled()`);
// callbacks run on the thread that calls `cancel()`, which in libmcp is the I/O thread.

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp {

class CancellationToken {
public:
    /// A token that is never cancelled.
    CancellationToken() = default;

    bool cancelled() const { return state_ && state_->cancelled.load(std::memory_order_acquire); }
    /// Why it was cancelled, as given to `CancellationSource::cancel`.
    std::string reason() const;
    /// Runs `callback` on cancellation, or at once if already cancelled. Returns an id for `forget`.
    std::size_t on_cancel(std::function<void()> callback) const;
    void forget(std::size_t callback_id) const;

private:
    friend class CancellationSource;
    struct State {
        std::atomic<bool> cancelled{false};
        std::mutex mutex;
        std::string reason;
        std::vector<std::pair<std::size_t, std::function<void()>>> callbacks;
        std::size_t next_id = 1;
    };
    explicit CancellationToken(std::shared_ptr<State> state) : state_(std::move(state)) {}
    std::shared_ptr<State> state_;
};

class CancellationSource {
public:
    CancellationSource() : state_(std::make_shared<CancellationToken::State>()) {}
    CancellationToken token() const { return CancellationToken(state_); }
    bool cancelled() const { return state_->cancelled.load(std::memory_order_acquire); }
    /// Cancels once; later calls do nothing. Runs the registered callbacks.
    void cancel(std::string reason = {});

private:
    std::shared_ptr<CancellationToken::State> state_;
};

}  // namespace mcp
