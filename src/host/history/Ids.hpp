#pragma once
// The ids of sessions, turns, messages and questions.

#include <string>
#include <string_view>

namespace mcpkit::host {

/// A random id ("prefix_" + 32 hex digits, 128 bits from the kernel): session ids resume a
/// conversation and view ids are served without the token, so they must not be guessable.
std::string new_id(std::string_view prefix);

}  // namespace mcpkit::host
