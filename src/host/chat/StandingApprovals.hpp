#pragma once
// Tools the user allowed without asking, bound to the tool as the user saw it when they said so:
// one set per conversation ("allow in this chat") and one for the host ("always", kept in the
// store across restarts). A server may redefine a tool at any time (a new description telling the
// model to exfiltrate, a new argument): the approval then no longer holds, and the user is asked
// again and shown what changed.

#include <mcp/protocol/Tool.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mcpkit::host {

/// One standing approval, as the page's list shows it.
struct StandingApproval {
    std::string qualified_name;
    std::string server;
    std::string tool;  ///< the tool's own name on its server
    std::int64_t since = 0;
};

class StandingApprovals {
public:
    /// Remembers that `qualified_name` (of `server`, defined as `tool`) may run without asking.
    void allow(const std::string& qualified_name, const std::string& server, const mcp::Tool& tool,
               std::int64_t since = 0);
    /// Forgets it; whether there was one.
    bool revoke(const std::string& qualified_name) { return allowed_.erase(qualified_name) > 0; }
    std::vector<StandingApproval> list() const;
    /// Whether the user allowed this very definition always.
    bool allows(const std::string& qualified_name, const std::string& server, const mcp::Tool& tool) const;
    /// What differs from the definition the user allowed ("description", "input schema",
    /// "annotations", "title", "_meta"); empty when nothing was allowed or nothing changed.
    std::vector<std::string> changes(const std::string& qualified_name, const mcp::Tool& tool) const;
    /// The description the user allowed, if it has changed since.
    std::string allowed_description(const std::string& qualified_name) const;
    void clear() { allowed_.clear(); }

private:
    struct Allowed {
        std::string fingerprint;
        mcp::Tool tool;
        std::string server;
        std::int64_t since = 0;
    };
    static std::string fingerprint(const std::string& server, const mcp::Tool& tool);
    std::map<std::string, Allowed> allowed_;
};

}  // namespace mcpkit::host
