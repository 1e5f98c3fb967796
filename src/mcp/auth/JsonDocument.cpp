#include "auth/JsonDocument.hpp"

#include "mcp/auth/OAuthClient.hpp"

#include <boost/json/parse.hpp>

namespace mcp::auth {
namespace json = boost::json;

namespace {

[[noreturn]] void wrong_type(std::string_view field, const std::string& where, std::string_view expected) {
    throw AuthorizationError(where + ": \"" + std::string(field) + "\" must be " + std::string(expected));
}

}  // namespace

json::object parse_json_document(std::string_view body, const std::string& where, bool secret) {
    boost::system::error_code ec;
    json::value value = json::parse(body, ec);
    if (ec || !value.is_object()) {
        std::string start(secret ? std::string_view() : body.substr(0, 80));
        throw AuthorizationError(where + " is not a JSON object" + (start.empty() ? "" : ": " + start));
    }
    return std::move(value.as_object());
}

std::string required_string(const json::object& document, std::string_view field, const std::string& where) {
    auto* value = document.if_contains(field);
    if (!value) throw AuthorizationError(where + " lacks the required \"" + std::string(field) + "\"");
    if (!value->is_string() || value->get_string().empty()) wrong_type(field, where, "a non-empty string");
    return std::string(value->get_string());
}

std::string optional_string(const json::object& document, std::string_view field, const std::string& where) {
    auto* value = document.if_contains(field);
    if (!value || value->is_null()) return {};
    if (!value->is_string()) wrong_type(field, where, "a string");
    return std::string(value->get_string());
}

std::vector<std::string> string_list(const json::object& document, std::string_view field, const std::string& where) {
    std::vector<std::string> list;
    auto* value = document.if_contains(field);
    if (!value || value->is_null()) return list;
    if (!value->is_array()) wrong_type(field, where, "an array of strings");
    for (const auto& item : value->get_array()) {
        if (!item.is_string()) wrong_type(field, where, "an array of strings");
        list.emplace_back(item.get_string());
    }
    return list;
}

bool optional_bool(const json::object& document, std::string_view field, const std::string& where) {
    auto* value = document.if_contains(field);
    if (!value || value->is_null()) return false;
    if (!value->is_bool()) wrong_type(field, where, "true or false");
    return value->get_bool();
}

std::optional<double> optional_number(const json::object& document, std::string_view field, const std::string& where) {
    auto* value = document.if_contains(field);
    if (!value || value->is_null()) return std::nullopt;
    if (value->is_int64()) return static_cast<double>(value->get_int64());
    if (value->is_uint64()) return static_cast<double>(value->get_uint64());
    if (value->is_double()) return value->get_double();
    wrong_type(field, where, "a number");
}

}  // namespace mcp::auth
