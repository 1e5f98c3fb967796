#include "devconsole/tools/DevConsoleTools.hpp"

#include "mcp/Error.hpp"
#include "mcp/protocol/ErrorCodes.hpp"

#include <boost/json.hpp>

namespace mcpkit::devconsole {
namespace json = boost::json;

void add_artifact_resources(mcp::Server& server, DevConsole& console) {
    mcp::ResourceTemplate artifacts;
    artifacts.uri_template = std::string(ArtifactStore::uri_prefix) + "{id}";
    artifacts.name = "artifacts";
    artifacts.description = "Screenshots, large network bodies, accessibility trees and generated files that tool "
                            "answers link to instead of inlining them";
    server.add_resource_template(artifacts, [&console](mcp::ResourceRead& read) -> mcp::ReadResourceResult {
        auto artifact = console.artifacts().find(read.variables["id"]);
        if (!artifact)
            throw mcp::Error(mcp::error_code::resource_not_found_2025,
                             "No artifact " + read.uri + ": it was evicted (the store keeps the newest 200) or the "
                             "daemon restarted");
        mcp::ReadResourceResult result;
        result.contents.push_back(artifact->binary
                                      ? mcp::ResourceContents::of_blob(artifact->uri, artifact->mime_type, artifact->data)
                                      : mcp::ResourceContents::of_text(artifact->uri, artifact->mime_type, artifact->data));
        return result;
    });
}

void add_devconsole_tools(mcp::Server& server, DevConsole& console) {
    add_observe_tool(server, console);
    add_analyze_tool(server, console);
    add_interact_tool(server, console);
    add_configure_tool(server, console);
    add_generate_tool(server, console);
    add_artifact_resources(server, console);
}

}  // namespace mcpkit::devconsole
