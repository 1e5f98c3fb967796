#include "mcp/Cancellation.hpp"

namespace mcp {

std::string CancellationToken::reason() const {
    if (!state_) return {};
    std::lock_guard lock(state_->mutex);
    return state_->reason;
}

std::size_t CancellationToken::on_cancel(std::function<void()> callback) const {
    if (!state_) return 0;
    {
        std::lock_guard lock(state_->mutex);
        if (!state_->cancelled.load(std::memory_order_acquire)) {
            std::size_t id = state_->next_id++;
            state_->callbacks.emplace_back(id, std::move(callback));
            return id;
        }
    }
    callback();
    return 0;
}

void CancellationToken::forget(std::size_t callback_id) const {
    if (!state_ || callback_id == 0) return;
    std::lock_guard lock(state_->mutex);
    std::erase_if(state_->callbacks, [&](const auto& entry) { return entry.first == callback_id; });
}

void CancellationSource::cancel(std::string reason) {
    std::vector<std::pair<std::size_t, std::function<void()>>> callbacks;
    {
        std::lock_guard lock(state_->mutex);
        if (state_->cancelled.load(std::memory_order_acquire)) return;
        state_->reason = std::move(reason);
        state_->cancelled.store(true, std::memory_order_release);
        callbacks.swap(state_->callbacks);
    }
    for (auto& [id, callback] : callbacks) callback();
}

}  // namespace mcp
