#include "transport/http/RequestRules.hpp"

#include "transport/http/AsciiCase.hpp"

#include "mcp/protocol/Versions.hpp"

#include <algorithm>
#include <cctype>

namespace mcp::http {
namespace json = boost::json;

namespace {

std::string lowercase(std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

const json::object* single_params(const jsonrpc::Decoded& decoded) {
    if (decoded.is_batch) return nullptr;
    auto* message = std::get_if<jsonrpc::Message>(&decoded.single);
    if (!message) return nullptr;
    const json::value* params = nullptr;
    if (auto* request = std::get_if<jsonrpc::Request>(message)) params = &request->params;
    if (auto* notification = std::get_if<jsonrpc::Notification>(message)) params = &notification->params;
    return params && params->is_object() ? &params->as_object() : nullptr;
}

bool is_base64_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/'; }

int base64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : 63;
}

/// Strict Base64: the alphabet, a length that is a multiple of 4, '=' only as trailing padding.
std::optional<std::string> decode_base64_strict(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::size_t padding = 0;
    while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
    std::string_view body = text.substr(0, text.size() - padding);
    if (!std::all_of(body.begin(), body.end(), is_base64_char)) return std::nullopt;
    std::string out;
    std::uint32_t accumulator = 0;
    int bits = 0;
    for (char c : body) {
        accumulator = (accumulator << 6) | static_cast<std::uint32_t>(base64_value(c));
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((accumulator >> bits) & 0xFF);
        }
    }
    return out;
}

}  // namespace

bool is_modern_request(bool has_session_id, std::string_view version_header, bool has_meta_version) {
    if (has_session_id) return false;
    if (version_header.empty() && !has_meta_version) return false;
    if (versions::is_stateful(version_header) && !has_meta_version) return false;
    return true;
}

std::optional<std::string_view> protocol_version_in_meta(const json::object& params) {
    auto* meta = params.if_contains("_meta");
    if (!meta || !meta->is_object()) return std::nullopt;
    auto* version = meta->as_object().if_contains("io.modelcontextprotocol/protocolVersion");
    if (!version || !version->is_string()) return std::nullopt;
    return std::string_view(version->as_string());
}

std::optional<std::string_view> meta_protocol_version(const jsonrpc::Decoded& decoded) {
    const json::object* params = single_params(decoded);
    return params ? protocol_version_in_meta(*params) : std::nullopt;
}

const jsonrpc::Request* single_request(const jsonrpc::Decoded& decoded) {
    if (decoded.is_batch) return nullptr;
    auto* message = std::get_if<jsonrpc::Message>(&decoded.single);
    return message ? std::get_if<jsonrpc::Request>(message) : nullptr;
}

std::string_view single_method(const jsonrpc::Decoded& decoded) {
    if (decoded.is_batch) return {};
    auto* message = std::get_if<jsonrpc::Message>(&decoded.single);
    if (!message) return {};
    if (auto* request = std::get_if<jsonrpc::Request>(message)) return request->method;
    if (auto* notification = std::get_if<jsonrpc::Notification>(message)) return notification->method;
    return {};
}

std::optional<std::string> decode_header_value(std::string_view value) {
    constexpr std::string_view prefix = "=?base64?";
    constexpr std::string_view suffix = "?=";
    if (value.size() < prefix.size() + suffix.size() || !value.starts_with(prefix) || !value.ends_with(suffix))
        return std::string(value);
    return decode_base64_strict(value.substr(prefix.size(), value.size() - prefix.size() - suffix.size()));
}

std::optional<HeaderProblem> check_standard_headers(const jsonrpc::Decoded& decoded,
                                                    std::optional<std::string_view> version_header,
                                                    std::optional<std::string_view> method_header,
                                                    std::optional<std::string_view> name_header) {
    auto meta_version = meta_protocol_version(decoded);
    if (!version_header)
        return HeaderProblem{"Missing MCP-Protocol-Version header: send it with the same value as "
                             "params._meta[\"io.modelcontextprotocol/protocolVersion\"]"};
    if (meta_version && trim_ows(*version_header) != *meta_version)
        return HeaderProblem{"MCP-Protocol-Version header \"" + std::string(*version_header) +
                             "\" does not match params._meta protocolVersion \"" + std::string(*meta_version) + "\""};
    std::string_view method = single_method(decoded);
    if (method.empty()) return std::nullopt;  // not a single request: the engine answers it
    if (!method_header)
        return HeaderProblem{"Missing Mcp-Method header: send it with the body's method \"" + std::string(method) + "\""};
    if (trim_ows(*method_header) != method)
        return HeaderProblem{"Mcp-Method header \"" + std::string(*method_header) + "\" does not match the body's method \"" +
                             std::string(method) + "\""};
    std::string_view name_field;
    if (method == "tools/call" || method == "prompts/get") name_field = "name";
    else if (method == "resources/read") name_field = "uri";
    // tasks/result and tasks/list name no task (and are gone in 2026-07-28): the engine answers them.
    else if (method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel") name_field = "taskId";
    if (name_field.empty()) return std::nullopt;
    const json::object* params = single_params(decoded);
    const json::value* name = params ? params->if_contains(name_field) : nullptr;
    if (!name || !name->is_string()) return std::nullopt;  // the engine reports the missing field
    if (!name_header)
        return HeaderProblem{"Missing Mcp-Name header: send it with params." + std::string(name_field) + " (\"" +
                             std::string(name->as_string()) + "\")"};
    auto decoded_name = decode_header_value(trim_ows(*name_header));
    if (!decoded_name)
        return HeaderProblem{"Mcp-Name header is not valid =?base64?…?= (strict Base64 with padding is required)"};
    if (*decoded_name != name->as_string())
        return HeaderProblem{"Mcp-Name header \"" + std::string(*name_header) + "\" does not match params." +
                             std::string(name_field) + " \"" + std::string(name->as_string()) + "\""};
    return std::nullopt;
}

namespace {

bool header_chars_valid(std::string_view value) {
    // VCHAR, SP and HTAB only: anything else cannot have come from a conforming client.
    return std::all_of(value.begin(), value.end(), [](char c) {
        auto byte = static_cast<unsigned char>(c);
        return byte == '\t' || (byte >= 0x20 && byte <= 0x7E);
    });
}

bool same_value(const json::value& argument, const std::string& header_value) {
    if (argument.is_string()) return argument.get_string() == header_value;
    if (argument.is_bool()) return header_value == (argument.get_bool() ? "true" : "false");
    if (argument.is_number()) {
        try {
            std::size_t used = 0;
            double parsed = std::stod(header_value, &used);
            return used == header_value.size() && parsed == argument.to_number<double>();
        } catch (const std::exception&) {
            return false;
        }
    }
    return false;
}

}  // namespace

std::optional<HeaderProblem> check_parameter_headers(const json::object& input_schema, const json::object& arguments,
                                                     const std::vector<ParameterHeader>& headers) {
    auto* properties = input_schema.if_contains("properties");
    if (!properties || !properties->is_object()) return std::nullopt;
    for (const auto& [property, schema] : properties->get_object()) {
        if (!schema.is_object()) continue;
        auto* header_name = schema.get_object().if_contains("x-mcp-header");
        if (!header_name || !header_name->is_string()) continue;
        auto* argument = arguments.if_contains(property);
        if (!argument || argument->is_null()) continue;
        std::string wanted = lowercase(header_name->get_string());
        auto found = std::find_if(headers.begin(), headers.end(),
                                  [&](const ParameterHeader& header) { return lowercase(header.name) == wanted; });
        std::string full_name = "Mcp-Param-" + std::string(header_name->get_string());
        if (found == headers.end())
            return HeaderProblem{"Missing " + full_name + " header: argument \"" + std::string(property) +
                                 "\" is declared with x-mcp-header and must be mirrored in it"};
        if (!header_chars_valid(found->value))
            return HeaderProblem{full_name + " holds characters a header may not carry; send it as =?base64?…?="};
        auto value = decode_header_value(trim_ows(found->value));
        if (!value)
            return HeaderProblem{full_name + " is not valid =?base64?…?= (strict Base64 with padding is required)"};
        if (!same_value(*argument, *value))
            return HeaderProblem{full_name + " header does not match argument \"" + std::string(property) + "\""};
    }
    return std::nullopt;
}

}  // namespace mcp::http
