#pragma once
// The daemon's HTTP routes besides /mcp, in the original extension's wire format: /sync, the bulk
// telemetry endpoints, /screenshots, /query-result, /health.
//
// Who may call them: the Host must be a loopback name (DNS rebinding); a request with an Origin
// must come from a browser extension (chrome-extension:// or moz-extension://, pinned to given ids
// if any), so a web page, even one served from localhost, can neither post telemetry nor read
// results; the extension-only routes also need the X-Gasoline-Client header the extension sends.
// They take no secret (the original extension sends none), so a local program of another user can
// post telemetry, poll /sync or answer commands through /query-result (docs/security.md, "Left
// open"). /health shows such a stranger only that the daemon runs; with /mcp's bearer secret it
// shows the tracked tab and the counters too.

#include "devconsole/DevConsole.hpp"
#include "devconsole/extension/SyncChannel.hpp"

#include "mcp/transport/HttpRoutes.hpp"

#include <chrono>
#include <mutex>

namespace mcpkit::devconsole {

class ExtensionRoutes : public mcp::HttpRoutes {
public:
    /// `mcp_secret`: /mcp's bearer secret, which /health also takes to show all it knows ("": no secret).
    ExtensionRoutes(DevConsole& console, std::string mcp_secret = {})
        : console_(console), sync_(console), mcp_secret_(std::move(mcp_secret)) {}

    bool serves(std::string_view path) const override;
    std::size_t max_body_bytes(std::string_view path) const override;
    void handle(mcp::HttpRouteRequest request, std::function<void(mcp::HttpRouteResponse)> respond) override;

private:
    /// Why the request may not use the routes, or nothing.
    std::optional<mcp::HttpRouteResponse> refuse(const mcp::HttpRouteRequest& request, bool extension_only) const;
    bool extension_origin(std::string_view origin) const;
    mcp::HttpRouteResponse screenshot(const mcp::HttpRouteRequest& request);
    mcp::HttpRouteResponse query_result(const mcp::HttpRouteRequest& request);

    DevConsole& console_;
    SyncChannel sync_;
    std::mutex screenshot_mutex_;
    std::chrono::steady_clock::time_point last_error_screenshot_;
    std::string mcp_secret_;
};

}  // namespace mcpkit::devconsole
