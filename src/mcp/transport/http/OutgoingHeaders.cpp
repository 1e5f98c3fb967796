#include "transport/http/OutgoingHeaders.hpp"

#include "mcp/protocol/Tool.hpp"
#include "transport/http/RequestRules.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>

namespace mcp::http {
namespace json = boost::json;

std::string base64(std::string_view bytes) {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        std::uint32_t n = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                          static_cast<unsigned char>(bytes[i + 2]);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += alphabet[n & 63];
    }
    if (i + 1 == bytes.size()) {
        std::uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += "==";
    } else if (i + 2 == bytes.size()) {
        std::uint32_t n = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += '=';
    }
    return out;
}

namespace {


const json::object* params_of(const json::value& message) {
    if (!message.is_object()) return nullptr;
    auto* params = message.as_object().if_contains("params");
    return params && params->is_object() ? &params->as_object() : nullptr;
}

}  // namespace

std::optional<std::string> meta_protocol_version(const json::value& message) {
    auto* params = params_of(message);
    if (!params) return std::nullopt;
    auto version = protocol_version_in_meta(*params);
    return version ? std::optional<std::string>(*version) : std::nullopt;
}

void learn_tool_headers(const json::object& result, ToolHeaders& headers) {
    auto* tools = result.if_contains("tools");
    if (!tools || !tools->is_array()) return;
    for (const auto& tool : tools->as_array()) {
        if (!tool.is_object()) continue;
        auto* name = tool.as_object().if_contains("name");
        auto* schema = tool.as_object().if_contains("inputSchema");
        if (!name || !name->is_string() || !schema || !schema->is_object()) continue;
        if (header_annotation_problem(schema->as_object())) continue;
        std::vector<std::pair<std::string, std::string>> mirrored;
        if (auto* properties = schema->as_object().if_contains("properties"); properties && properties->is_object())
            for (const auto& [argument, property] : properties->as_object())
                if (property.is_object())
                    if (auto* header = property.as_object().if_contains("x-mcp-header"); header && header->is_string())
                        mirrored.emplace_back(std::string(argument), std::string(header->as_string()));
        headers[std::string(name->as_string())] = std::move(mirrored);
    }
}

std::string encode_header_value(std::string_view value) {
    bool unsafe = std::any_of(value.begin(), value.end(), [](char c) {
        auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte > 0x7E;
    });
    bool padded = !value.empty() && (value.front() == ' ' || value.back() == ' ');
    bool looks_encoded = value.starts_with("=?base64?") && value.ends_with("?=");
    if (unsafe || padded || looks_encoded) return "=?base64?" + base64(value) + "?=";
    return std::string(value);
}

void add_modern_headers(boost::beast::http::request<boost::beast::http::string_body>& request,
                        const json::value& message, const ToolHeaders& tool_headers) {
    if (auto version = meta_protocol_version(message)) request.set("MCP-Protocol-Version", *version);
    if (!message.is_object()) return;
    auto* method_value = message.as_object().if_contains("method");
    if (!method_value || !method_value->is_string()) return;
    std::string_view method = method_value->as_string();
    request.set("Mcp-Method", method);
    auto* params = params_of(message);
    if (!params) return;
    std::string_view name_field = method == "resources/read" ? "uri"
                                  : (method == "tools/call" || method == "prompts/get") ? "name"
                                  : (method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel") ? "taskId"
                                  : std::string_view();
    if (name_field.empty()) return;
    auto* name = params->if_contains(name_field);
    if (!name || !name->is_string()) return;
    request.set("Mcp-Name", encode_header_value(name->as_string()));
    if (method != "tools/call") return;
    auto tool = tool_headers.find(name->as_string());
    auto* arguments = params->if_contains("arguments");
    if (tool == tool_headers.end() || !arguments || !arguments->is_object()) return;
    for (const auto& [argument, header] : tool->second) {
        auto* value = arguments->as_object().if_contains(argument);
        if (!value || value->is_null()) continue;
        std::string text;
        if (value->is_string()) text = encode_header_value(value->as_string());
        else if (value->is_bool()) text = value->as_bool() ? "true" : "false";
        else if (value->is_number()) text = json::serialize(*value);
        else continue;
        request.set("Mcp-Param-" + header, text);
    }
}

}  // namespace mcp::http
