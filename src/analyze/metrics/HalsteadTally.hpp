#pragma once
// Counts operators and operands as a walk meets them. Keys are views into the source or into the
// grammar's interned type names, so counting allocates only when a set grows (Python's
// operands, keyed by radon's function context and value, are the exception).

#include "analyze/metrics/FileReport.hpp"

#include <string>
#include <string_view>
#include <unordered_set>

namespace mcpkit::analyze {

class HalsteadTally {
public:
    void add_operator(std::string_view key) {
        ++total_operators_;
        operators_.insert(key);
    }
    void add_operand(std::string_view key) {
        ++total_operands_;
        operands_.insert(key);
    }
    /// An operand keyed by a computed value (radon's context and value) rather than source text.
    void add_keyed_operand(std::string&& key) {
        ++total_operands_;
        owned_operands_.insert(std::move(key));
    }
    /// An operand that never equals another (radon counts compound expressions this way).
    void add_unique_operand() {
        ++total_operands_;
        ++unique_operands_;
    }
    HalsteadCounts counts() const {
        return {static_cast<std::int64_t>(operators_.size()),
                static_cast<std::int64_t>(operands_.size() + owned_operands_.size()) + unique_operands_, total_operators_, total_operands_};
    }

private:
    std::unordered_set<std::string_view> operators_;
    std::unordered_set<std::string_view> operands_;
    std::unordered_set<std::string> owned_operands_;  // never mixed with operands_ in one walk
    std::int64_t unique_operands_ = 0;
    std::int64_t total_operators_ = 0;
    std::int64_t total_operands_ = 0;
};

}  // namespace mcpkit::analyze
