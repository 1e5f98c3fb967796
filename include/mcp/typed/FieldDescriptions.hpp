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
class FieldSchema {
public:
    FieldSchema(boost::json::object& keywords, bool& optional) : keywords_(&keywords), optional_(&optional) {}

    FieldSchema& description(std::string_view text) { return keyword("description", boost::json::string(text)); }
    FieldSchema& title(std::string_view text) { return keyword("title", boost::json::string(text)); }
    FieldSchema& minimum(double value) { return number("minimum", value); }
    FieldSchema& maximum(double value) { return number("maximum", value); }
    FieldSchema& exclusive_minimum(double value) { return number("exclusiveMinimum", value); }
    FieldSchema& exclusive_maximum(double value) { return number("exclusiveMaximum", value); }
    FieldSchema& min_length(std::int64_t value) { return keyword("minLength", value); }
    FieldSchema& max_length(std::int64_t value) { return keyword("maxLength", value); }
    FieldSchema& pattern(std::string_view regex) { return keyword("pattern", boost::json::string(regex)); }
    FieldSchema& format(std::string_view name) { return keyword("format", boost::json::string(name)); }
    FieldSchema& min_items(std::int64_t value) { return keyword("minItems", value); }
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

    const boost::json::object* keywords(std::string_view name) const {
        auto it = keywords_.find(name);
        return it == keywords_.end() ? nullptr : &it->second;
    }
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
