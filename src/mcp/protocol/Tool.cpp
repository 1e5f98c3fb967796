#include "mcp/protocol/Tool.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "mcp/jsonrpc/Codec.hpp"
#include "protocol/JsonFields.hpp"

namespace mcp {
namespace json = boost::json;

json::object Tool::to_json() const {
    json::object out{{"name", name}};
    detail::put(out, "title", title);
    out["description"] = description;
    out["inputSchema"] = input_schema;
    if (output_schema) out["outputSchema"] = *output_schema;
    detail::put_nonempty(out, "annotations", annotations);
    detail::put_nonempty(out, "icons", icons);
    detail::put_nonempty(out, "execution", execution);
    detail::put_nonempty(out, "_meta", meta);
    return out;
}

Tool Tool::from_json(const json::object& in) {
    Tool tool;
    tool.name = json_fields::text(in, "name");
    tool.description = json_fields::text(in, "description");
    // A server that leaves the schema out takes no arguments: the default `{"type":"object"}`
    // stays, so the tool can be served again (Server::add_tool refuses a schema without a type).
    if (auto* v = in.if_contains("inputSchema"); v && v->is_object()) tool.input_schema = v->get_object();
    if (auto* v = in.if_contains("outputSchema"); v && v->is_object()) tool.output_schema = v->get_object();
    tool.title = json_fields::optional_text(in, "title");
    tool.annotations = json_fields::object(in, "annotations");
    tool.icons = json_fields::array(in, "icons");
    tool.execution = json_fields::object(in, "execution");
    tool.meta = json_fields::object(in, "_meta");
    return tool;
}

CallToolResult CallToolResult::text(std::string_view text) {
    CallToolResult result;
    result.content.push_back(Content::text(text));
    return result;
}

CallToolResult CallToolResult::error(std::string_view message) {
    CallToolResult result = text(message);
    result.is_error = true;
    return result;
}

CallToolResult CallToolResult::structured(json::value structured) {
    CallToolResult result;
    std::string text;
    jsonrpc::append_json(text, structured);
    result.content.push_back(Content::text(text));
    result.structured_content = std::move(structured);
    return result;
}

json::object CallToolResult::to_json() const& { return CallToolResult(*this).to_json(); }

json::object CallToolResult::to_json() && {
    json::array blocks;
    blocks.reserve(content.size());
    for (auto& block : content) blocks.emplace_back(std::move(block.json));
    json::object out;
    out.reserve(4);
    out.emplace("content", std::move(blocks));
    if (structured_content) out["structuredContent"] = std::move(*structured_content);
    if (is_error) out["isError"] = true;
    if (!meta.empty()) out["_meta"] = std::move(meta);
    return out;
}

void CallToolResult::append_json(std::string& out) const {
    out += R"({"content":[)";
    bool first = true;
    for (const auto& block : content) {
        if (!first) out += ',';
        first = false;
        jsonrpc::append_json(out, block.json);
    }
    out += ']';
    if (structured_content) {
        out += R"(,"structuredContent":)";
        jsonrpc::append_json(out, *structured_content);
    }
    if (is_error) out += R"(,"isError":true)";
    if (!meta.empty()) {
        out += R"(,"_meta":)";
        jsonrpc::append_json(out, meta);
    }
    out += '}';
}

CallToolResult CallToolResult::from_json(const json::object& in) {
    CallToolResult result;
    for (const auto& block : json_fields::array(in, "content"))
        if (block.is_object()) result.content.push_back(Content{block.get_object()});
    if (auto* v = in.if_contains("structuredContent")) result.structured_content = *v;
    if (auto* v = in.if_contains("isError"); v && v->is_bool()) result.is_error = v->get_bool();
    result.meta = json_fields::object(in, "_meta");
    return result;
}

namespace {
bool is_header_token_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}
}  // namespace

std::optional<std::string> header_annotation_problem(const json::object& input_schema) {
    auto* properties = input_schema.if_contains("properties");
    if (!properties || !properties->is_object()) return std::nullopt;
    std::set<std::string> seen;
    for (const auto& [name, schema] : properties->as_object()) {
        if (!schema.is_object()) continue;
        auto* header = schema.as_object().if_contains("x-mcp-header");
        if (!header) continue;
        if (!header->is_string()) return "x-mcp-header of \"" + std::string(name) + "\" is not a string";
        std::string_view value = header->as_string();
        if (value.empty()) return "x-mcp-header of \"" + std::string(name) + "\" is empty";
        if (!std::all_of(value.begin(), value.end(), is_header_token_char))
            return "x-mcp-header \"" + std::string(value) + "\" has characters a header name may not have";
        auto* type = schema.as_object().if_contains("type");
        if (!type || !type->is_string() ||
            (type->as_string() != "string" && type->as_string() != "integer" && type->as_string() != "boolean"))
            return "x-mcp-header \"" + std::string(value) + "\" is on a property that is not string, integer or boolean";
        std::string lower(value);
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (!seen.insert(lower).second) return "x-mcp-header \"" + std::string(value) + "\" is used twice";
    }
    return std::nullopt;
}

}  // namespace mcp
