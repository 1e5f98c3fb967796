#pragma once
// Small pieces the subcommands share.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace mcpkit::cli {

/// "127.0.0.1:3000", "[::1]:3000", ":3000" or "3000" (host defaults to 127.0.0.1).
bool parse_host_port(const std::string& text, std::string& host, std::uint16_t& port);

/// A log for stderr (stdout may carry protocol): "mcpkit COMPONENT: message" lines, or JSON objects
/// {time, component, message} with `json`.
std::function<void(std::string_view)> stderr_log(std::string component, bool json);

}  // namespace mcpkit::cli
