// Reading what a client answers to an input request (elicitation, sampling, roots) and writing
// result texts that quote it. Answers come from the client, so each is checked for the shape its
// request promises before a tool relies on it; a 2026 retry can carry anything.

#include "everything/FixtureParts.hpp"

#include <mcp/jsonrpc/JsonWriter.hpp>

#include <cmath>

namespace mcpkit::everything {
namespace json = boost::json;

namespace {

/// Whether `value` has the JSON Schema primitive `type` an elicitation form field declares.
bool has_schema_type(const json::value& value, std::string_view type) {
    if (type == "string") return value.is_string();
    if (type == "boolean") return value.is_bool();
    if (type == "number") return value.is_number();
    if (type == "integer") {
        if (value.is_int64() || value.is_uint64()) return true;
        return value.is_double() && std::trunc(value.get_double()) == value.get_double();
    }
    if (type == "array") return value.is_array();
    if (type == "object") return value.is_object();
    return true;  // a type these flat forms never use: nothing to hold the answer to
}

/// Whether a filled form matches the form that was asked for: required fields present, each given
/// field of its declared type, and a string field with an enum one of its values.
bool fits_form(const json::object& content, const json::object& requested_schema) {
    const json::object* properties = nullptr;
    if (auto* p = requested_schema.if_contains("properties")) properties = p->if_object();
    if (auto* required = requested_schema.if_contains("required"); required && required->is_array())
        for (const auto& name : required->get_array())
            if (name.is_string() && !content.contains(name.get_string())) return false;
    if (!properties) return true;
    for (const auto& [name, value] : content) {
        auto* field = properties->if_contains(name);
        if (!field || !field->is_object()) continue;  // extra fields are the client's business
        const json::object& declared = field->get_object();
        if (auto* type = declared.if_contains("type"); type && type->is_string())
            if (!has_schema_type(value, type->get_string())) return false;
        if (auto* choices = declared.if_contains("enum"); choices && choices->is_array() && value.is_string()) {
            bool listed = false;
            for (const auto& choice : choices->get_array()) listed = listed || choice == value;
            if (!listed) return false;
        }
    }
    return true;
}

}  // namespace

json::object no_arguments() { return json::object{{"type", "object"}, {"properties", json::object()}}; }

json::object sampling_request(std::string_view prompt, int max_tokens) {
    json::object message{{"role", "user"}, {"content", {{"type", "text"}, {"text", prompt}}}};
    return json::object{{"messages", json::array{std::move(message)}}, {"maxTokens", max_tokens}};
}

std::string Elicitation::text(std::string_view field) const {
    if (auto* value = content.if_contains(field); value && value->is_string()) return std::string(value->get_string());
    return "unknown";
}

std::optional<Elicitation> read_elicitation(const json::value& answer, const json::object& requested_schema) {
    const json::object* result = answer.if_object();
    if (!result) return std::nullopt;
    auto* action = result->if_contains("action");
    if (!action || !action->is_string()) return std::nullopt;
    Elicitation elicitation{std::string(action->get_string()), {}};
    if (elicitation.accepted()) {
        if (auto* content = result->if_contains("content")) {
            if (!content->is_object()) return std::nullopt;
            elicitation.content = content->get_object();
        }
        if (!fits_form(elicitation.content, requested_schema)) return std::nullopt;
    } else if (elicitation.action != "decline" && elicitation.action != "cancel") {
        return std::nullopt;
    }
    return elicitation;
}

std::optional<Sampling> read_sampling(const json::value& answer) {
    const json::object* result = answer.if_object();
    if (!result) return std::nullopt;
    auto* role = result->if_contains("role");
    auto* content = result->if_contains("content");
    if (!role || !role->is_string() || !content) return std::nullopt;
    // 2025-11-25 lets the content be one block or several (tool use); either way, blocks are typed objects.
    json::array single;
    const json::array* blocks = content->if_array();
    if (!blocks) {
        single.push_back(*content);
        blocks = &single;
    }
    Sampling sampling;
    for (const auto& block : *blocks) {
        const json::object* fields = block.if_object();
        if (!fields) return std::nullopt;
        auto* type = fields->if_contains("type");
        if (!type || !type->is_string()) return std::nullopt;
        auto* text = fields->if_contains("text");
        if (!sampling.text && type->get_string() == "text" && text && text->is_string())
            sampling.text = std::string(text->get_string());
    }
    return sampling;
}

std::optional<std::size_t> count_roots(const json::value& answer) {
    const json::object* result = answer.if_object();
    if (!result) return std::nullopt;
    auto* roots = result->if_contains("roots");
    if (!roots || !roots->is_array()) return std::nullopt;
    for (const auto& root : roots->get_array()) {
        const json::object* fields = root.if_object();
        if (!fields) return std::nullopt;
        auto* uri = fields->if_contains("uri");
        if (!uri || !uri->is_string()) return std::nullopt;
    }
    return roots->get_array().size();
}

std::string json_text(const json::value& value) { return mcp::jsonrpc::to_json_text(value); }

}  // namespace mcpkit::everything
