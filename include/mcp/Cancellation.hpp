#pragma once
// Cooperative cancellation shared between the code that asks for it (a peer's
// notifications/cancelled, a caller giving up) and the code doing the work.
//
// A token may be read from any thread (handlers on the worker pool poll `cancelled()`);
// callbacks run on the thread that calls `cancel()`, which in libmcp is the I/O thread.

#include "mcp/Export.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp {

/// The read side of a cancellation: cheap to copy, polled by the code doing the work.
/// A token may be read from any thread; it shares its state with the CancellationSource that made it.
class MCP_API CancellationToken {
public:
    /// A token that is never cancelled.
    CancellationToken() = default;

    /// True once the source has been cancelled (never for a default-constructed token).
    bool cancelled() const { return state_ && state_->cancelled.load(std::memory_order_acquire); }
    /// Why it was cancelled, as given to `CancellationSource::cancel`.
    std::string reason() const;
    /// Runs `callback` on cancellation, or at once if already cancelled. Returns an id for `forget`.
    std::size_t on_cancel(std::function<void()> callback) const;
    /// Unregisters a callback added by `on_cancel`, e.g. when the work finished first; unknown ids and 0
    /// are ignored.
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

/// The write side of a cancellation: owns the shared state and hands out tokens that observe it.
class MCP_API CancellationSource {
public:
    /// A new, not yet cancelled source.
    CancellationSource() : state_(std::make_shared<CancellationToken::State>()) {}
    /// A token observing this source; every token shares the same state.
    CancellationToken token() const { return CancellationToken(state_); }
    /// True once `cancel` has been called.
    bool cancelled() const { return state_->cancelled.load(std::memory_order_acquire); }
    /// Cancels once; later calls do nothing. Runs the registered callbacks.
    void cancel(std::string reason = {});

private:
    std::shared_ptr<CancellationToken::State> state_;
};

}  // namespace mcp
