#pragma once
// `mcpkit analyze`: the code-analysis MCP server. Registers the analysis, session and discovery
// tools on an mcp::Server; every tool answers with the response envelope.

#include "analyze/server/CallRunner.hpp"

#include <mcp/server/Server.hpp>

#include <cstdint>
#include <string>

namespace mcpkit::analyze {

struct AnalyzeServerOptions {
    std::string root;        ///< relative paths in arguments are resolved against it (default: the working directory)
    /// Refuse (403) every path that resolves outside `root` (the working directory when empty).
    bool confine_to_root = false;
    std::string cache_path;  ///< the content-hash cache; empty: none
    /// Larger files (and analyze-code texts) are refused or, in a tree, skipped: a syntax tree takes
    /// up to ~50 times its source in memory.
    std::int64_t max_file_bytes = 4 << 20;
};

void add_analyze_tools(mcp::Server& server, CallRunner& runner, const AnalyzeServerOptions& options);

// The groups, one file each.
void add_analysis_tools(mcp::Server& server, CallRunner& runner, const AnalyzeServerOptions& options);
void add_navigation_tools(mcp::Server& server, CallRunner& runner, const AnalyzeServerOptions& options);
void add_session_tools(mcp::Server& server, CallRunner& runner);
void add_discovery_tools(mcp::Server& server, CallRunner& runner);

}  // namespace mcpkit::analyze
