#include "analyze/metrics/Maintainability.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mcpkit::analyze {

double maintainability_index(double volume, double complexity, double lines, double comment_percent) {
    if (!(volume > 0) || !(lines > 0)) return 100.0;
    comment_percent = std::isfinite(comment_percent) ? std::max(comment_percent, 0.0) : 0.0;
    double comment_term = 50.0 * std::sin(std::sqrt(2.46 * comment_percent * std::numbers::pi / 180.0));
    double raw = 171.0 - 5.2 * std::log(volume) - 0.23 * complexity - 16.2 * std::log(lines) + comment_term;
    // A NaN would pass std::clamp and make the JSON answer unreadable.
    return std::isfinite(raw) ? std::clamp(raw * 100.0 / 171.0, 0.0, 100.0) : 0.0;
}

}  // namespace mcpkit::analyze
