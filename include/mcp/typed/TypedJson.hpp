#pragma once
// C++ values to and from JSON, and the JSON Schema (2020-12) of their type, for structs and enums
// described with Boost.Describe. This is what lets a tool take and return structs.
//
// Supported: bool, integers (range-checked), floating point, std::string, described enums (as
// their names), described structs (objects), std::optional (a member that may be absent),
// std::vector (arrays), std::map / std::unordered_map with string keys (objects), and
// boost::json::value / object / array as they are.

#include "mcp/Export.hpp"
#include "mcp/typed/FieldDescriptions.hpp"

#include <boost/describe/enum_from_string.hpp>
#include <boost/describe/enum_to_string.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/describe/members.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cmath>
#include <concepts>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace mcp {

/// A JSON value that does not fit the C++ type; `path` says where ("location.city", "days[2]").
class MCP_API JsonConversionError : public std::runtime_error {
public:
    /// An error at `path` (empty for the value itself); what() reads "path: problem".
    JsonConversionError(std::string path, const std::string& problem)
        : std::runtime_error((path.empty() ? std::string("the value") : path) + ": " + problem), path_(std::move(path)) {}
    /// Where the value went wrong, e.g. "location.city" or "days[2]"; empty for the top level.
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

/// The "$schema" URI json_schema_of puts in the schemas it makes: draft 2020-12.
inline constexpr const char* json_schema_dialect = "https://json-schema.org/draft/2020-12/schema";

namespace detail {

template <class T>
struct is_std_optional : std::false_type {};
template <class T>
struct is_std_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_std_vector : std::false_type {};
template <class T, class A>
struct is_std_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_string_map : std::false_type {};
template <class V, class C, class A>
struct is_string_map<std::map<std::string, V, C, A>> : std::true_type {};
template <class V, class H, class E, class A>
struct is_string_map<std::unordered_map<std::string, V, H, E, A>> : std::true_type {};

template <class T>
concept described_struct = boost::describe::has_describe_members<T>::value && std::is_class_v<T>;
template <class T>
concept described_enum = boost::describe::has_describe_enumerators<T>::value;
template <class T>
concept json_integer = std::integral<T> && !std::same_as<T, bool>;

inline std::string member_path(const std::string& parent, std::string_view name) {
    return parent.empty() ? std::string(name) : parent + "." + std::string(name);
}

inline const char* kind_of(const boost::json::value& value) {
    switch (value.kind()) {
    case boost::json::kind::null: return "null";
    case boost::json::kind::bool_: return "a boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return "a number";
    case boost::json::kind::string: return "a string";
    case boost::json::kind::array: return "an array";
    case boost::json::kind::object: return "an object";
    }
    return "a value";
}

[[noreturn]] inline void wrong_kind(const std::string& path, const char* expected, const boost::json::value& value) {
    throw JsonConversionError(path, std::string("must be ") + expected + ", not " + kind_of(value));
}

// ---- C++ → JSON ----

template <class T>
boost::json::value to_json_value(const T& value);

template <class T>
void write_members(const T& value, boost::json::object& out) {
    boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>([&](auto member) {
        const auto& field = value.*member.pointer;
        using Field = std::remove_cvref_t<decltype(field)>;
        if constexpr (is_std_optional<Field>::value) {
            if (field) out[member.name] = to_json_value(*field);
        } else {
            out[member.name] = to_json_value(field);
        }
    });
}

template <class T>
boost::json::value to_json_value(const T& value) {
    if constexpr (std::same_as<T, bool>) {
        return value;
    } else if constexpr (json_integer<T>) {
        if constexpr (std::is_signed_v<T>) return static_cast<std::int64_t>(value);
        else return static_cast<std::uint64_t>(value);
    } else if constexpr (std::floating_point<T>) {
        return static_cast<double>(value);
    } else if constexpr (std::convertible_to<const T&, std::string_view>) {
        return boost::json::string(std::string_view(value));
    } else if constexpr (std::same_as<T, boost::json::value> || std::same_as<T, boost::json::object> ||
                         std::same_as<T, boost::json::array>) {
        return value;
    } else if constexpr (described_enum<T>) {
        const char* name = boost::describe::enum_to_string(value, nullptr);
        if (!name) throw JsonConversionError("", "enum value " + std::to_string(static_cast<long long>(value)) + " has no name");
        return boost::json::string(name);
    } else if constexpr (is_std_optional<T>::value) {
        return value ? to_json_value(*value) : boost::json::value(nullptr);
    } else if constexpr (is_std_vector<T>::value) {
        boost::json::array array;
        array.reserve(value.size());
        for (const auto& item : value) array.push_back(to_json_value(item));
        return array;
    } else if constexpr (is_string_map<T>::value) {
        boost::json::object object;
        for (const auto& [key, item] : value) object[key] = to_json_value(item);
        return object;
    } else if constexpr (described_struct<T>) {
        boost::json::object object;
        write_members(value, object);
        return object;
    } else {
        static_assert(sizeof(T) == 0, "mcp: this type has no JSON form; describe it with BOOST_DESCRIBE_STRUCT or BOOST_DESCRIBE_ENUM");
    }
}

// ---- JSON → C++ ----

template <class T>
void from_json_value(const boost::json::value& json, T& out, const std::string& path);

template <json_integer T>
void read_integer(const boost::json::value& json, T& out, const std::string& path) {
    bool fits = false;
    if (json.is_int64()) {
        std::int64_t v = json.get_int64();
        fits = std::in_range<T>(v);
        if (fits) out = static_cast<T>(v);
    } else if (json.is_uint64()) {
        std::uint64_t v = json.get_uint64();
        fits = std::in_range<T>(v);
        if (fits) out = static_cast<T>(v);
    } else if (json.is_double()) {
        double v = json.get_double();  // 2020-12: 1.0 is an integer
        if (std::trunc(v) != v) wrong_kind(path, "an integer", json);
        fits = v >= static_cast<double>(std::numeric_limits<T>::min()) &&
               v <= static_cast<double>(std::numeric_limits<T>::max()) && std::abs(v) < 9.007199254740992e15;
        if (fits) out = static_cast<T>(v);
    } else {
        wrong_kind(path, "an integer", json);
    }
    if (!fits)
        throw JsonConversionError(path, "must be an integer from " + std::to_string(std::numeric_limits<T>::min()) +
                                            " to " + std::to_string(std::numeric_limits<T>::max()));
}

template <class T>
void read_members(const boost::json::object& object, T& out, const std::string& path) {
    static const FieldDescriptions<T> fields = field_descriptions_of<T>();
    boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>([&](auto member) {
        auto& field = out.*member.pointer;
        using Field = std::remove_cvref_t<decltype(field)>;
        std::string field_path = member_path(path, member.name);
        const boost::json::value* json = object.if_contains(member.name);
        if constexpr (is_std_optional<Field>::value) {
            if (!json || json->is_null()) {
                field.reset();
            } else {
                typename Field::value_type inner{};
                from_json_value(*json, inner, field_path);
                field = std::move(inner);
            }
        } else {
            if (!json) {
                if (!fields.optional(member.name)) throw JsonConversionError(field_path, "is required");
                return;  // keeps its default
            }
            from_json_value(*json, field, field_path);
        }
    });
}

template <class T>
void from_json_value(const boost::json::value& json, T& out, const std::string& path) {
    if constexpr (std::same_as<T, bool>) {
        if (!json.is_bool()) wrong_kind(path, "a boolean", json);
        out = json.get_bool();
    } else if constexpr (json_integer<T>) {
        read_integer(json, out, path);
    } else if constexpr (std::floating_point<T>) {
        if (!json.is_number()) wrong_kind(path, "a number", json);
        out = static_cast<T>(json.to_number<double>());
    } else if constexpr (std::same_as<T, std::string>) {
        if (!json.is_string()) wrong_kind(path, "a string", json);
        out = std::string(json.get_string());
    } else if constexpr (std::same_as<T, boost::json::value>) {
        out = json;
    } else if constexpr (std::same_as<T, boost::json::object>) {
        if (!json.is_object()) wrong_kind(path, "an object", json);
        out = json.get_object();
    } else if constexpr (std::same_as<T, boost::json::array>) {
        if (!json.is_array()) wrong_kind(path, "an array", json);
        out = json.get_array();
    } else if constexpr (described_enum<T>) {
        if (!json.is_string()) wrong_kind(path, "a string", json);
        if (!boost::describe::enum_from_string(std::string(json.get_string()).c_str(), out)) {
            std::string allowed;
            boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto e) {
                allowed += (allowed.empty() ? "\"" : ", \"") + std::string(e.name) + "\"";
            });
            throw JsonConversionError(path, "must be one of " + allowed);
        }
    } else if constexpr (is_std_optional<T>::value) {
        if (json.is_null()) {
            out.reset();
        } else {
            typename T::value_type inner{};
            from_json_value(json, inner, path);
            out = std::move(inner);
        }
    } else if constexpr (is_std_vector<T>::value) {
        if (!json.is_array()) wrong_kind(path, "an array", json);
        out.clear();
        out.reserve(json.get_array().size());
        std::size_t index = 0;
        for (const auto& item : json.get_array()) {
            typename T::value_type value{};
            from_json_value(item, value, path + "[" + std::to_string(index++) + "]");
            out.push_back(std::move(value));
        }
    } else if constexpr (is_string_map<T>::value) {
        if (!json.is_object()) wrong_kind(path, "an object", json);
        out.clear();
        for (const auto& [key, item] : json.get_object()) {
            typename T::mapped_type value{};
            from_json_value(item, value, member_path(path, key));
            out.emplace(std::string(key), std::move(value));
        }
    } else if constexpr (described_struct<T>) {
        if (!json.is_object()) wrong_kind(path, "an object", json);
        read_members(json.get_object(), out, path);
    } else {
        static_assert(sizeof(T) == 0, "mcp: this type has no JSON form; describe it with BOOST_DESCRIBE_STRUCT or BOOST_DESCRIBE_ENUM");
    }
}

// ---- JSON Schema ----

/// `strict`: objects refuse properties they do not declare (tool inputs, where a misspelt argument
/// should fail loudly); results leave them open so a server may add fields.
template <class T>
boost::json::object schema_of(bool strict);

template <class T>
boost::json::object struct_schema(bool strict) {
    static const FieldDescriptions<T> fields = field_descriptions_of<T>();
    boost::json::object properties;
    boost::json::array required;
    const T defaults{};
    boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>([&](auto member) {
        using Field = std::remove_cvref_t<decltype(defaults.*member.pointer)>;
        boost::json::object property;
        if constexpr (is_std_optional<Field>::value) property = schema_of<typename Field::value_type>(strict);
        else property = schema_of<Field>(strict);
        if (const auto* keywords = fields.keywords(member.name))
            for (const auto& [key, value] : *keywords) property[key] = value;
        if constexpr (!is_std_optional<Field>::value) {
            if (fields.optional(member.name)) {
                if (!property.contains("default")) property["default"] = to_json_value(defaults.*member.pointer);
            } else {
                required.push_back(boost::json::string(member.name));
            }
        }
        properties[member.name] = std::move(property);
    });
    boost::json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
    if (!required.empty()) schema["required"] = std::move(required);
    if (strict) schema["additionalProperties"] = false;
    return schema;
}

template <class T>
boost::json::object schema_of(bool strict) {
    if constexpr (std::same_as<T, bool>) {
        return {{"type", "boolean"}};
    } else if constexpr (json_integer<T>) {
        boost::json::object schema{{"type", "integer"}};
        // Narrow types say their range, so a value that cannot fit is refused by the schema.
        if constexpr (sizeof(T) < 8) {
            schema["minimum"] = static_cast<std::int64_t>(std::numeric_limits<T>::min());
            schema["maximum"] = static_cast<std::int64_t>(std::numeric_limits<T>::max());
        } else if constexpr (std::is_unsigned_v<T>) {
            schema["minimum"] = 0;
        }
        return schema;
    } else if constexpr (std::floating_point<T>) {
        return {{"type", "number"}};
    } else if constexpr (std::same_as<T, std::string>) {
        return {{"type", "string"}};
    } else if constexpr (std::same_as<T, boost::json::value>) {
        return {};
    } else if constexpr (std::same_as<T, boost::json::object>) {
        return {{"type", "object"}};
    } else if constexpr (std::same_as<T, boost::json::array>) {
        return {{"type", "array"}};
    } else if constexpr (described_enum<T>) {
        boost::json::array names;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>(
            [&](auto e) { names.push_back(boost::json::string(e.name)); });
        return {{"type", "string"}, {"enum", std::move(names)}};
    } else if constexpr (is_std_optional<T>::value) {
        return schema_of<typename T::value_type>(strict);
    } else if constexpr (is_std_vector<T>::value) {
        return {{"type", "array"}, {"items", schema_of<typename T::value_type>(strict)}};
    } else if constexpr (is_string_map<T>::value) {
        return {{"type", "object"}, {"additionalProperties", schema_of<typename T::mapped_type>(strict)}};
    } else if constexpr (described_struct<T>) {
        return struct_schema<T>(strict);
    } else {
        static_assert(sizeof(T) == 0, "mcp: this type has no JSON Schema; describe it with BOOST_DESCRIBE_STRUCT or BOOST_DESCRIBE_ENUM");
    }
}

}  // namespace detail

/// `value` as JSON.
template <class T>
boost::json::value to_json_value(const T& value) {
    return detail::to_json_value(value);
}

/// `json` as a T; throws JsonConversionError naming the field that does not fit.
template <class T>
T from_json_value(const boost::json::value& json) {
    T value{};
    detail::from_json_value(json, value, "");
    return value;
}

/// The same for a described struct read from an object, without copying the object into a value.
template <class T>
T from_json_object(const boost::json::object& json) {
    static_assert(detail::described_struct<T>, "from_json_object reads described structs");
    T value{};
    detail::read_members(json, value, "");
    return value;
}

/// The JSON Schema (2020-12) of T. `strict`: objects refuse undeclared properties.
template <class T>
boost::json::object json_schema_of(bool strict = true) {
    boost::json::object schema = detail::schema_of<T>(strict);
    schema["$schema"] = json_schema_dialect;
    return schema;
}

}  // namespace mcp
