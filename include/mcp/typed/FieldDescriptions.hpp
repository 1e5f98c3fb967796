#pragma once
// Descriptions and limits for the fields of a struct described with Boost.Describe, for the JSON
// Schema generated from it. Write a `describe_fields` function beside the struct (found by
// argument-dependent lookup); members are named by pointer, so a typo does not compile:
//
//   struct WeatherArgs { std::string city; int days = 1; };
//   BOOST_DESCRIBE_STRUCT(WeatherArgs, (), (city, days))
//
//   inline void describe_fields(mcp::FieldDescriptions<WeatherArgs>& fields) {
//       fields.field(&WeatherArgs::city, "City name, e.g. \"Paris\"").min_length(1);
//       fields.field(&WeatherArgs::days, "Days ahead").minimum(1).maximum(16).optional();
//   }
//
// An `optional()` field may be left out; it then keeps its default member initializer, which the
// schema advertises as its "default". A std::optional member is always optional.

#include "mcp/Export.hpp"

#include <boost/describe/members.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace mcp {

/// The extra keywords of one field's schema. Each setter returns *this so calls chain.
class MCP_API FieldSchema {
public:
    /// Edits `keywords` and `optional` in place; FieldDescriptions::field makes these.
    FieldSchema(boost::json::object& keywords, bool& optional) : keywords_(&keywords), optional_(&optional) {}

    /// "description": what the field means, shown to models.
    FieldSchema& description(std::string_view text) { return keyword("description", boost::json::string(text)); }
    /// "title": a short display name.
    FieldSchema& title(std::string_view text) { return keyword("title", boost::json::string(text)); }
    /// "minimum": the smallest number allowed.
    FieldSchema& minimum(double value) { return number("minimum", value); }
    /// "maximum": the largest number allowed.
    FieldSchema& maximum(double value) { return number("maximum", value); }
    /// "exclusiveMinimum": numbers must be greater than this.
    FieldSchema& exclusive_minimum(double value) { return number("exclusiveMinimum", value); }
    /// "exclusiveMaximum": numbers must be less than this.
    FieldSchema& exclusive_maximum(double value) { return number("exclusiveMaximum", value); }
    /// "minLength": the fewest characters a string may have.
    FieldSchema& min_length(std::int64_t value) { return keyword("minLength", value); }
    /// "maxLength": the most characters a string may have.
    FieldSchema& max_length(std::int64_t value) { return keyword("maxLength", value); }
    /// "pattern": an ECMA-262 regular expression a string must match (anywhere, unless anchored).
    FieldSchema& pattern(std::string_view regex) { return keyword("pattern", boost::json::string(regex)); }
    /// "format": a hint such as "date-time" or "email"; an annotation, not checked.
    FieldSchema& format(std::string_view name) { return keyword("format", boost::json::string(name)); }
    /// "minItems": the fewest elements an array may have.
    FieldSchema& min_items(std::int64_t value) { return keyword("minItems", value); }
    /// "maxItems": the most elements an array may have.
    FieldSchema& max_items(std::int64_t value) { return keyword("maxItems", value); }
    /// The field may be left out; it then keeps the struct's default.
    FieldSchema& optional() {
        *optional_ = true;
        return *this;
    }
    /// Any other JSON Schema keyword.
    FieldSchema& keyword(std::string_view name, boost::json::value value) {
        (*keywords_)[name] = std::move(value);
        return *this;
    }

private:
    /// Whole numbers stay integers in the schema ("minimum": 1, not 1.0).
    FieldSchema& number(std::string_view name, double value) {
        if (value == static_cast<double>(static_cast<std::int64_t>(value)))
            return keyword(name, static_cast<std::int64_t>(value));
        return keyword(name, value);
    }

    boost::json::object* keywords_;
    bool* optional_;
};

/// The descriptions and limits for the fields of T, filled in by a user's `describe_fields`
/// function and read when T's JSON Schema is generated.
template <class T>
class FieldDescriptions {
public:
    /// The schema of `member`, to describe and constrain.
    template <class M>
    FieldSchema field(M T::*member, std::string_view description = {}) {
        std::string name = name_of(member);
        FieldSchema schema(keywords_[name], optional_flags_[name]);
        if (!description.empty()) schema.description(description);
        return schema;
    }

    /// The extra keywords given for the member called `name`, or null when none were.
    const boost::json::object* keywords(std::string_view name) const {
        auto it = keywords_.find(name);
        return it == keywords_.end() ? nullptr : &it->second;
    }
    /// Whether the member called `name` was marked optional().
    bool optional(std::string_view name) const {
        auto it = optional_flags_.find(name);
        return it != optional_flags_.end() && it->second;
    }

private:
    template <class M>
    static std::string name_of(M T::*member) {
        std::string name;
        boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>([&](auto described) {
            if constexpr (std::is_same_v<std::remove_cv_t<decltype(described.pointer)>, M T::*>) {
                if (described.pointer == member) name = described.name;
            }
        });
        if (name.empty()) throw std::invalid_argument("describe_fields: the member is not in the struct's BOOST_DESCRIBE_STRUCT list");
        return name;
    }

    std::map<std::string, boost::json::object, std::less<>> keywords_;
    std::map<std::string, bool, std::less<>> optional_flags_;
};

namespace detail {
template <class T>
concept has_field_descriptions = requires(FieldDescriptions<T>& fields) { describe_fields(fields); };

/// The descriptions the user wrote for T, or none.
template <class T>
FieldDescriptions<T> field_descriptions_of() {
    FieldDescriptions<T> fields;
    if constexpr (has_field_descriptions<T>) describe_fields(fields);
    return fields;
}
}  // namespace detail

}  // namespace mcp
