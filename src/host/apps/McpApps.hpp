#pragma once
// MCP Apps on the host's side: a tool's ui:// resource read from its server, kept under an
// unguessable id and served at /apps/<id> with the Content-Security-Policy its metadata asks for
// (the spec's restrictive default when it asks for nothing). The page frames it sandboxed and
// relays the view's requests (web/PageProtocol's app_request).

#include "host/HostLog.hpp"
#include "host/coordinator/McpCoordinator.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <deque>
#include <map>
#include <optional>
#include <string>

namespace mcpkit::host {

struct AppView {
    std::string html;
    std::string content_security_policy;
    std::string server;  ///< whose tool's view it is
    std::string tool;    ///< the tool's qualified name
};

/// The CSP header for a view whose `_meta.ui.csp` is `declared` (may be empty). Origins that are
/// not plain scheme://host[:port] (with an optional leading *.) are dropped, so a server cannot
/// smuggle directives in.
std::string app_content_security_policy(const boost::json::object& declared);

class McpApps {
public:
    McpApps(McpCoordinator& coordinator, HostLog& log) : coordinator_(coordinator), log_(log) {}

    /// The `app` member of a status or tool_result frame for a call of `tool` ({url, resourceUri,
    /// server, tool, prefersBorder?}), or null when the tool has no view or it cannot be read.
    boost::asio::awaitable<boost::json::value> app_for(const RegisteredTool& tool);
    /// A view served at /apps/<id>.
    const AppView* view(const std::string& id) const;
    /// Whether the view an `app` member (from app_for) names is still served.
    bool serves(const boost::json::value& app) const;
    /// The view served at `url` ("/apps/<id>", an `app` member's url), or null.
    const AppView* view_at(std::string_view url) const;

private:
    std::string keep(AppView view);
    McpCoordinator& coordinator_;
    HostLog& log_;
    std::map<std::string, AppView> views_;
    std::deque<std::string> order_;  ///< oldest first, to bound how many are kept
};

}  // namespace mcpkit::host
