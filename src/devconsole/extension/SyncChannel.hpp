#pragma once
// POST /sync, the extension's channel: each poll brings the extension's settings, its debug log,
// the results of commands it ran and its acknowledgement, and takes back the commands waiting for
// it. A poll with nothing to take is held (long poll) until a command arrives or long_poll passes.
//
// After a held poll that timed out, the extension is told to come back at once (next_poll_ms 20),
// not after a second: a command queued between two polls would otherwise wait out the pause.

#include "devconsole/DevConsole.hpp"

#include "mcp/transport/HttpRoutes.hpp"

namespace mcpkit::devconsole {

class SyncChannel {
public:
    explicit SyncChannel(DevConsole& console) : console_(console) {}

    void handle(const mcp::HttpRouteRequest& request, std::function<void(mcp::HttpRouteResponse)> respond);

private:
    /// The answer with whatever is to be delivered now.
    std::string answer(bool held_poll_timed_out);

    DevConsole& console_;
};

}  // namespace mcpkit::devconsole
