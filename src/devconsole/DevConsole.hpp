#pragma once
// The daemon's state, shared by the extension's routes and the MCP tools: the capture buffers,
// the command queue, the link to the extension and the stored artifacts, plus the watchdog that
// notices a silent extension and commands that took too long.

#include "devconsole/capture/ArtifactStore.hpp"
#include "devconsole/capture/CaptureBuffers.hpp"
#include "devconsole/capture/NoiseRules.hpp"
#include "devconsole/commands/CommandQueue.hpp"
#include "devconsole/extension/ExtensionLink.hpp"
#include "devconsole/tools/AuditLog.hpp"
#include "devconsole/tools/PageStateStore.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace mcpkit::devconsole {

inline constexpr std::string_view daemon_version = "0.1.0";
/// What /sync reports as server_version: the wire protocol of the 0.7 extension it serves. That
/// extension warns when the major.minor differs from its own.
inline constexpr std::string_view wire_version = "0.7.10";

struct DevConsoleOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 7890;
    CaptureLimits capture;
    CommandQueueOptions commands;
    /// How long a tool call waits for its command before answering still_processing.
    std::chrono::milliseconds tool_wait{std::chrono::seconds(15)};
    /// How long a command waits for a disconnected extension to come back before it is refused.
    std::chrono::milliseconds connect_grace{std::chrono::seconds(3)};
    /// How long /sync holds a poll with nothing to deliver.
    std::chrono::milliseconds long_poll{std::chrono::seconds(5)};
    std::chrono::milliseconds disconnect_after{std::chrono::seconds(10)};
    /// Extension ids allowed to talk to the daemon (chrome-extension://<id>); empty: any extension.
    std::vector<std::string> extension_ids;
    std::function<void(std::string_view)> log;
};

class DevConsole {
public:
    DevConsole(boost::asio::io_context& io, DevConsoleOptions options);
    ~DevConsole();

    /// Starts the watchdog (on `io`).
    void start();
    void stop();

    const DevConsoleOptions& options() const { return options_; }
    boost::asio::io_context& io() { return io_; }
    CaptureBuffers& buffers() { return buffers_; }
    CommandQueue& commands() { return commands_; }
    ExtensionLink& link() { return link_; }
    ArtifactStore& artifacts() { return artifacts_; }
    PageStateStore& page_states() { return page_states_; }
    NoiseRules& noise_rules() { return noise_rules_; }
    AuditLog& audit_log() { return audit_log_; }
    void log(std::string_view message) const {
        if (options_.log) options_.log(message);
    }
    /// The /health document. Without `full`, only what anyone on this machine may know (that the
    /// daemon runs, its version, whether the extension is connected, how many entries it holds):
    /// not the tracked tab, the extension's ids, or the command counters.
    std::string health(bool full = true) const;
    std::int64_t started_ms() const { return started_ms_; }

private:
    void watch();

    boost::asio::io_context& io_;
    DevConsoleOptions options_;
    CaptureBuffers buffers_;
    CommandQueue commands_;
    ExtensionLink link_;
    ArtifactStore artifacts_;
    PageStateStore page_states_;
    NoiseRules noise_rules_;
    AuditLog audit_log_;
    boost::asio::steady_timer watchdog_;
    bool stopped_ = false;
    std::int64_t started_ms_;
};

}  // namespace mcpkit::devconsole
