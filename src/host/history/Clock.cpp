#include "host/history/Clock.hpp"

#include <chrono>

namespace mcpkit::host {

std::int64_t now_milliseconds() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace mcpkit::host
