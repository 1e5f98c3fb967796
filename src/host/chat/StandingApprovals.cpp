#include "host/chat/StandingApprovals.hpp"

#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace json = boost::json;

std::string StandingApprovals::fingerprint(const std::string& server, const mcp::Tool& tool) {
    // Everything the user (or the model) reads of the tool, and who serves it. Kept as text rather
    // than hashed: it is compared, not looked up, and a hash would only add a way to be wrong.
    json::object definition{{"server", server},
                            {"name", tool.name},
                            {"title", tool.title ? json::value(*tool.title) : json::value(nullptr)},
                            {"description", tool.description},
                            {"inputSchema", tool.input_schema},
                            {"annotations", tool.annotations},
                            // _meta.ui says who may call it (the model, an app view) and its view.
                            {"meta", tool.meta}};
    return json::serialize(definition);
}

void StandingApprovals::allow(const std::string& qualified_name, const std::string& server, const mcp::Tool& tool,
                              std::int64_t since) {
    allowed_[qualified_name] = Allowed{fingerprint(server, tool), tool, server, since};
}

std::vector<StandingApproval> StandingApprovals::list() const {
    std::vector<StandingApproval> list;
    for (const auto& [name, allowed] : allowed_) list.push_back({name, allowed.server, allowed.tool.name, allowed.since});
    return list;
}

bool StandingApprovals::allows(const std::string& qualified_name, const std::string& server,
                               const mcp::Tool& tool) const {
    auto it = allowed_.find(qualified_name);
    return it != allowed_.end() && it->second.fingerprint == fingerprint(server, tool);
}

std::vector<std::string> StandingApprovals::changes(const std::string& qualified_name, const mcp::Tool& tool) const {
    std::vector<std::string> changed;
    auto it = allowed_.find(qualified_name);
    if (it == allowed_.end()) return changed;
    const mcp::Tool& before = it->second.tool;
    if (before.description != tool.description) changed.emplace_back("description");
    if (before.input_schema != tool.input_schema) changed.emplace_back("input schema");
    if (before.annotations != tool.annotations) changed.emplace_back("annotations");
    if (before.title != tool.title) changed.emplace_back("title");
    if (before.meta != tool.meta) changed.emplace_back("_meta");
    return changed;
}

std::string StandingApprovals::allowed_description(const std::string& qualified_name) const {
    auto it = allowed_.find(qualified_name);
    return it == allowed_.end() ? std::string() : it->second.tool.description;
}

}  // namespace mcpkit::host
