#include "host/coordinator/CircuitBreaker.hpp"

namespace mcpkit::host {

void CircuitBreaker::record_failure(const std::string& tool, Clock::time_point now) {
    auto& record = records_[tool];
    ++record.count;
    record.last_failure = now;
}

void CircuitBreaker::record_success(const std::string& tool) {
    auto it = records_.find(tool);
    if (it == records_.end()) return;
    if (--it->second.count <= 0) records_.erase(it);
}

bool CircuitBreaker::is_open(const std::string& tool, Clock::time_point now) {
    auto it = records_.find(tool);
    if (it == records_.end()) return false;
    if (now - it->second.last_failure > reset_after_) {
        records_.erase(it);
        return false;
    }
    return it->second.count >= threshold_;
}

CircuitBreaker::Clock::time_point CircuitBreaker::reopens_at(const std::string& tool) const {
    auto it = records_.find(tool);
    return it == records_.end() ? Clock::time_point{} : it->second.last_failure + reset_after_;
}

int CircuitBreaker::failures(const std::string& tool) const {
    auto it = records_.find(tool);
    return it == records_.end() ? 0 : it->second.count;
}

}  // namespace mcpkit::host
