#pragma once
// "Always allow" for one conversation, bound to the tool the user saw when they said it. A server
// may redefine a tool at any time (a new description telling the model to exfiltrate, a new
// argument): the approval then no longer holds, and the user is asked again and shown what changed.

#include <mcp/protocol/Tool.hpp>

#include <map>
#include <string>
#include <vector>

namespace mcpkit::host {

class StandingApprovals {
public:
    /// Remembers that `qualified_name` (of `server`, defined as `tool`) may run without asking.
    void allow(const std::string& qualified_name, const std::string& server, const mcp::Tool& tool);
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
    };
    static std::string fingerprint(const std::string& server, const mcp::Tool& tool);
    std::map<std::string, Allowed> allowed_;
};

}  // namespace mcpkit::host
