#pragma once
// The seed's breaker for unreliable tools: each failure counts up, each success counts down;
// at 5 the tool is open (calls fail at once and the model no longer sees it) until 60 s pass
// without a new failure.

#include <chrono>
#include <map>
#include <string>

namespace mcpkit::host {

class CircuitBreaker {
public:
    using Clock = std::chrono::steady_clock;
    explicit CircuitBreaker(int threshold = 5, std::chrono::milliseconds reset_after = std::chrono::seconds(60))
        : threshold_(threshold), reset_after_(reset_after) {}

    void record_failure(const std::string& tool, Clock::time_point now = Clock::now());
    void record_success(const std::string& tool);
    bool is_open(const std::string& tool, Clock::time_point now = Clock::now());
    /// When an open tool closes again.
    Clock::time_point reopens_at(const std::string& tool) const;
    int failures(const std::string& tool) const;
    /// No tool has a failure on record (none can be open).
    bool empty() const { return records_.empty(); }

private:
    struct Record {
        int count = 0;
        Clock::time_point last_failure;
    };
    int threshold_;
    std::chrono::milliseconds reset_after_;
    std::map<std::string, Record> records_;
};

}  // namespace mcpkit::host
