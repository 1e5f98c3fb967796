#include "cli/Tour.hpp"

#include "cli/PrettyJson.hpp"

#include <mcp/Error.hpp>
#include <mcp/protocol/Methods.hpp>

#include <algorithm>

namespace mcpkit::cli {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

void show(std::ostream& out, std::string_view arrow, std::string_view what, const json::value& body) {
    out << arrow << ' ' << what << '\n' << pretty_json(body) << "\n\n";
}

/// Arguments a tool can be called with when its schema asks for nothing, or only strings.
std::optional<json::object> sample_arguments(const mcp::Tool& tool) {
    json::object arguments;
    auto* required = tool.input_schema.if_contains("required");
    if (!required || !required->is_array()) return arguments;
    auto* properties = tool.input_schema.if_contains("properties");
    for (const auto& name : required->get_array()) {
        if (!name.is_string() || !properties || !properties->is_object()) return std::nullopt;
        auto* property = properties->get_object().if_contains(name.get_string());
        auto* type = property && property->is_object() ? property->get_object().if_contains("type") : nullptr;
        if (!type || !type->is_string() || type->get_string() != "string") return std::nullopt;
        arguments[name.get_string()] = "hello from the mcpkit tour";
    }
    return arguments;
}

bool annotated(const mcp::Tool& tool, std::string_view hint) {
    auto* value = tool.annotations.if_contains(hint);
    return value && value->is_bool() && value->get_bool();
}

/// Why the tour leaves a tool alone, or nothing when it may call it.
std::optional<std::string> reason_to_skip(const mcp::Tool& tool, const std::vector<std::string>& also_call) {
    bool asked = std::find(also_call.begin(), also_call.end(), tool.name) != also_call.end();
    if (asked) return std::nullopt;
    if (annotated(tool, "destructiveHint"))
        return "annotated destructiveHint: it may delete or overwrite; call it by name with --call " + tool.name;
    if (!annotated(tool, "readOnlyHint"))
        return "not annotated readOnlyHint: it may change things; add --call " + tool.name + " to call it anyway";
    // Calls that would wait on a person or a model are left to the interactive verbs.
    for (std::string_view waits : {"elicitation", "sampling", "input_required", "reconnection"})
        if (tool.name.find(waits) != std::string::npos)
            return "it would wait for a person or a model; use mcpkit client call " + tool.name;
    return std::nullopt;
}

}  // namespace

asio::awaitable<void> tour(mcp::Client& client, std::ostream& out, const std::vector<std::string>& also_call) {
    show(out, "←", "initialize: the server",
         json::object{{"protocolVersion", client.protocol_version()},
                      {"serverInfo", client.server_info().to_json()},
                      {"capabilities", client.server_capabilities()}});
    const auto& caps = client.server_capabilities();

    if (caps.contains("tools")) {
        auto tools = co_await client.list_tools();
        json::array names;
        for (const auto& tool : tools) names.emplace_back(tool.name);
        show(out, "←", "tools/list", json::object{{"count", tools.size()}, {"names", names}});
        json::array skipped;
        auto skip = [&](const mcp::Tool& tool, std::string why) {
            skipped.push_back(json::object{{"tool", tool.name}, {"why", std::move(why)}});
        };
        for (const auto& tool : tools) {
            if (auto why = reason_to_skip(tool, also_call)) {
                skip(tool, std::move(*why));
                continue;
            }
            auto arguments = sample_arguments(tool);
            if (!arguments) {
                skip(tool, "it needs arguments the tour cannot make up; use mcpkit client call " + tool.name + " JSON");
                continue;
            }
            show(out, "→", "tools/call " + tool.name, *arguments);
            try {
                mcp::RequestOptions options;
                options.timeout = std::chrono::seconds(10);
                options.on_progress = [&out](double progress, std::optional<double> total, const std::string& message) {
                    out << "  … progress " << progress << (total ? " / " + std::to_string(*total) : "") << ' '
                        << message << '\n';
                };
                auto result = co_await client.call_tool(tool.name, *arguments, options);
                show(out, "←", "result", result.to_json());
            } catch (const mcp::Error& e) {
                show(out, "←", "error", json::object{{"code", e.code()}, {"message", e.what()}});
            }
        }
        if (!skipped.empty()) show(out, "·", "tools not called", skipped);
        for (const auto& name : also_call)
            if (std::none_of(tools.begin(), tools.end(), [&](const mcp::Tool& tool) { return tool.name == name; }))
                show(out, "·", "--call names no tool of this server", json::string(name));
    }
    if (caps.contains("resources")) {
        auto resources = co_await client.list_resources();
        json::array listed;
        for (const auto& r : resources) listed.push_back(r.to_json());
        show(out, "←", "resources/list", listed);
        auto templates = co_await client.list_resource_templates();
        json::array listed_templates;
        for (const auto& t : templates) listed_templates.push_back(t.to_json());
        show(out, "←", "resources/templates/list", listed_templates);
        for (const auto& resource : resources) {
            show(out, "→", "resources/read", json::object{{"uri", resource.uri}});
            try {
                json::array contents;
                for (const auto& c : co_await client.read_resource(resource.uri)) contents.push_back(c.to_json());
                show(out, "←", "result", contents);
            } catch (const mcp::Error& e) {
                show(out, "←", "error", json::object{{"code", e.code()}, {"message", e.what()}});
            }
        }
    }
    if (caps.contains("prompts")) {
        auto prompts = co_await client.list_prompts();
        json::array listed;
        for (const auto& p : prompts) listed.push_back(p.to_json());
        show(out, "←", "prompts/list", listed);
        for (const auto& prompt : prompts) {
            json::object arguments;
            for (const auto& argument : prompt.arguments)
                if (argument.required) arguments[argument.name] = "tour";
            if (prompt.name.find("input_required") != std::string::npos) continue;
            show(out, "→", "prompts/get " + prompt.name, arguments);
            try {
                json::object params{{"name", prompt.name}, {"arguments", arguments}};  // outside co_await (g++ 12)
                show(out, "←", "result", co_await client.request(mcp::methods::prompts_get, std::move(params)));
            } catch (const mcp::Error& e) {
                show(out, "←", "error", json::object{{"code", e.code()}, {"message", e.what()}});
            }
        }
    }
}

}  // namespace mcpkit::cli
