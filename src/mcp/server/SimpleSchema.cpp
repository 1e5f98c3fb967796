#include "server/SimpleSchema.hpp"

#include <cmath>
#include <set>

namespace mcp::detail {
namespace json = boost::json;

namespace {

// Keywords that only describe and never constrain.
bool is_annotation(std::string_view key) {
    static const std::set<std::string_view> annotations = {"title", "description", "default", "examples", "$comment",
                                                           "deprecated", "readOnly", "writeOnly"};
    return annotations.contains(key);
}

const char* json_type_name(const json::value& value) {
    switch (value.kind()) {
        case json::kind::null: return "null";
        case json::kind::bool_: return "boolean";
        case json::kind::int64:
        case json::kind::uint64: return "integer";
        case json::kind::double_: return "number";
        case json::kind::string: return "string";
        case json::kind::array: return "array";
        case json::kind::object: return "object";
    }
    return "unknown";
}

}  // namespace

std::optional<unsigned> SimpleSchema::parse_types(const json::value& type) {
    auto one = [](std::string_view name) -> std::optional<unsigned> {
        if (name == "null") return null_type;
        if (name == "boolean") return boolean_type;
        if (name == "integer") return integer_type;
        if (name == "number") return number_type | integer_type;
        if (name == "string") return string_type;
        if (name == "array") return array_type;
        if (name == "object") return object_type;
        return std::nullopt;
    };
    if (type.is_string()) return one(type.get_string());
    if (!type.is_array()) return std::nullopt;
    unsigned types = 0;
    for (const auto& name : type.get_array()) {
        if (!name.is_string()) return std::nullopt;
        auto bit = one(name.get_string());
        if (!bit) return std::nullopt;
        types |= *bit;
    }
    return types;
}

std::optional<SimpleSchema> SimpleSchema::compile(const json::object& schema) {
    SimpleSchema compiled;
    for (const auto& [key, value] : schema) {
        if (key == "type") {
            if (!value.is_string() || value.get_string() != "object") return std::nullopt;
        } else if (key == "$schema" || is_annotation(key)) {
            continue;
        } else if (key == "required") {
            if (!value.is_array()) return std::nullopt;
            for (const auto& name : value.get_array()) {
                if (!name.is_string()) return std::nullopt;
                compiled.required_.emplace_back(name.get_string());
            }
        } else if (key == "additionalProperties") {
            if (!value.is_bool()) return std::nullopt;
            compiled.additional_allowed_ = value.get_bool();
        } else if (key == "properties") {
            if (!value.is_object()) return std::nullopt;
            for (const auto& [name, property] : value.get_object()) {
                if (!property.is_object()) return std::nullopt;
                Property rule{std::string(name), any_type};
                for (const auto& [property_key, property_value] : property.get_object()) {
                    if (property_key == "type") {
                        auto types = parse_types(property_value);
                        if (!types) return std::nullopt;
                        rule.types = *types;
                    } else if (!is_annotation(property_key)) {
                        return std::nullopt;
                    }
                }
                compiled.properties_.push_back(std::move(rule));
            }
        } else {
            return std::nullopt;
        }
    }
    return compiled;
}

bool SimpleSchema::matches(const json::value& value, unsigned types) {
    switch (value.kind()) {
        case json::kind::null: return types & null_type;
        case json::kind::bool_: return types & boolean_type;
        case json::kind::int64:
        case json::kind::uint64: return types & (integer_type | number_type);
        case json::kind::double_: {
            // Draft 7: a number with no fractional part is an integer.
            double d = value.get_double();
            return (types & number_type) || ((types & integer_type) && std::isfinite(d) && std::floor(d) == d);
        }
        case json::kind::string: return types & string_type;
        case json::kind::array: return types & array_type;
        case json::kind::object: return types & object_type;
    }
    return false;
}

std::string SimpleSchema::describe(unsigned types) {
    std::string out;
    auto add = [&](unsigned bit, const char* name) {
        if (!(types & bit)) return;
        if (!out.empty()) out += " or ";
        out += name;
    };
    if ((types & number_type) != 0) {
        add(number_type, "number");
    } else {
        add(integer_type, "integer");
    }
    add(string_type, "string");
    add(boolean_type, "boolean");
    add(array_type, "array");
    add(object_type, "object");
    add(null_type, "null");
    return out;
}

std::optional<std::string> SimpleSchema::validate(const json::value& instance) const {
    if (!instance.is_object()) return std::string("expected an object, got ") + json_type_name(instance);
    return validate_object(instance.get_object());
}

std::optional<std::string> SimpleSchema::validate_object(const json::object& object) const {    for (const auto& name : required_)
        if (!object.contains(name)) return "/" + name + ": missing required property \"" + name + "\"";
    for (const auto& rule : properties_) {
        const json::value* value = object.if_contains(rule.name);
        if (value && !matches(*value, rule.types))
            return "/" + rule.name + ": expected " + describe(rule.types) + ", got " + json_type_name(*value);
    }
    if (!additional_allowed_) {
        for (const auto& [key, value] : object) {
            bool known = false;
            for (const auto& rule : properties_) known = known || rule.name == key;
            if (!known) return "/" + std::string(key) + ": property \"" + std::string(key) + "\" is not allowed";
        }
    }
    return std::nullopt;
}

}  // namespace mcp::detail
