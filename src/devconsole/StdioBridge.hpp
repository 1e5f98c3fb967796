#pragma once
// `mcpkit devconsole --stdio`: MCP over stdio for assistants that only start commands. The
// bridge forwards every message to the devconsole daemon on the port, and starts the daemon
// (detached, logging to a file) when none answers there; several assistants so share one daemon,
// and with it one browser.

#include <cstdint>
#include <string>

namespace mcpkit::devconsole {

struct StdioBridgeOptions {
    std::uint16_t port = 7890;
    /// The command line that starts a daemon on `port` (this executable, `devconsole --port P`).
    std::string executable;
    /// Where a started daemon writes its log.
    std::string log_file;
};

/// Serves until stdin closes. Prints only protocol on stdout. Returns the exit code.
int run_stdio_bridge(const StdioBridgeOptions& options);

}  // namespace mcpkit::devconsole
