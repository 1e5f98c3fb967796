#pragma once
// Every analyze tool's description, input schema (each parameter described, complex ones with
// examples), output schema (the envelope), category, tags and usage examples: the single source
// for tools/list and for the discovery tools.

#include <mcp/protocol/Tool.hpp>

#include <boost/json/array.hpp>

#include <string>
#include <vector>

namespace mcpkit::analyze {

struct CatalogEntry {
    std::string name;
    std::string category;  ///< "analysis", "navigation", "session" or "discovery"
    std::vector<std::string> tags;
    std::string description;
    boost::json::object input_schema;
    boost::json::object data_schema;
    boost::json::array examples;  ///< [{description, arguments}]
};

const std::vector<CatalogEntry>& tool_catalog();
/// find-symbol, find-references, get-call-hierarchy, get-type-hierarchy, get-change-impact,
/// find-dead-code (NavigationCatalog.cpp).
std::vector<CatalogEntry> navigation_catalog_entries();
const CatalogEntry* find_catalog_entry(std::string_view name);
/// The MCP tool for a catalog entry: description, inputSchema, outputSchema (the envelope).
mcp::Tool catalog_tool(std::string_view name);

}  // namespace mcpkit::analyze
