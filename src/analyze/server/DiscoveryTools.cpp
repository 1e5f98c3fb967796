// list-available-tools and get-tool-details, answered from the same catalog as tools/list.

#include "analyze/server/AnalyzeServer.hpp"
#include "analyze/server/ToolCatalog.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace mcpkit::analyze {
namespace json = boost::json;

namespace {

json::object describe(const CatalogEntry& entry, bool with_examples, bool with_parameters) {
    json::array tags;
    for (const std::string& tag : entry.tags) tags.push_back(json::string(tag));
    json::object out{{"name", entry.name}, {"category", entry.category}, {"tags", std::move(tags)},
                     {"description", entry.description}};
    if (with_parameters) {
        json::array parameters;
        const json::object& properties = entry.input_schema.at("properties").as_object();
        const json::value* required = entry.input_schema.if_contains("required");
        for (const auto& [name, schema] : properties) {
            bool is_required = required && std::any_of(required->as_array().begin(), required->as_array().end(),
                                                        [&](const json::value& item) { return item.as_string() == name; });
            json::object parameter{{"name", name}, {"required", is_required}, {"schema", schema}};
            if (const json::value* description = schema.as_object().if_contains("description"))
                parameter["description"] = *description;
            parameters.push_back(std::move(parameter));
        }
        out["parameters"] = std::move(parameters);
    }
    if (with_examples) out["examples"] = entry.examples;
    return out;
}

}  // namespace

void add_discovery_tools(mcp::Server& server, CallRunner& runner) {
    auto add = [&](const char* tool_name, ToolBody body) {
        server.add_tool(catalog_tool(tool_name), [&runner, name = std::string(tool_name), body = std::move(body)](
                                                     mcp::ToolCall& call) { return runner.run(name, call, body, false); },
                        runner.tool_options(tool_name, false, false));
    };

    add("list-available-tools", [](const json::object& arguments, CallControl&) {
        auto category = optional_string(arguments, "category");
        auto tag = optional_string(arguments, "tag");
        const json::value* include = arguments.if_contains("includeExamples");
        bool with_examples = include && include->is_bool() && include->get_bool();
        if (category && *category != "analysis" && *category != "navigation" && *category != "session" && *category != "discovery")
            throw ToolError(status_code::bad_request,
                            "category \"" + *category + "\" does not exist: use analysis, navigation, session or discovery");
        json::array tools;
        std::string text;
        for (const CatalogEntry& entry : tool_catalog()) {
            if (category && entry.category != *category) continue;
            if (tag && std::find(entry.tags.begin(), entry.tags.end(), *tag) == entry.tags.end()) continue;
            tools.push_back(describe(entry, with_examples, false));
            text += entry.name + " (" + entry.category + "): " + entry.description.substr(0, entry.description.find('.') + 1) + "\n";
        }
        ToolOutput output;
        output.text = tools.empty() ? "No tools match." : text;
        output.data = json::object{{"tools", std::move(tools)}};
        return output;
    });

    add("get-tool-details", [](const json::object& arguments, CallControl&) {
        std::string name = required_string(arguments, "toolName", "e.g. analyze-project; list-available-tools names them all");
        const CatalogEntry* entry = find_catalog_entry(name);
        if (!entry) throw ToolError(status_code::not_found, "No tool named " + name + "; list-available-tools names them all.");
        ToolOutput output;
        output.data = describe(*entry, true, true);
        output.text = entry->name + ": " + entry->description;
        return output;
    });
}

void add_analyze_tools(mcp::Server& server, CallRunner& runner, const AnalyzeServerOptions& options) {
    add_analysis_tools(server, runner, options);
    add_navigation_tools(server, runner, options);
    add_session_tools(server, runner);
    add_discovery_tools(server, runner);
}

}  // namespace mcpkit::analyze
