#pragma once
// The wall clock the history is stamped with (milliseconds since the epoch, as the stores and
// the page carry it).

#include <cstdint>

namespace mcpkit::host {

std::int64_t now_milliseconds();

}  // namespace mcpkit::host
