// Evaluates an instance against a compiled schema, keyword by keyword, as JSON Schema 2020-12
// (or draft-07) specifies. Annotations (which properties and items were evaluated) are collected
// only when the schema uses unevaluatedProperties/unevaluatedItems. The first failure outside a
// speculative branch (anyOf, oneOf, not, if, contains) becomes the message. The keywords that
// apply subschemas are in SchemaApplicators.cpp.

#include "schema/SchemaEvaluation.hpp"

#include <cmath>
#include <stdexcept>

namespace mcp {
namespace json = boost::json;

namespace schema_evaluation {
using namespace schema_values;

bool Evaluator::evaluate(const json::value& schema, const json::value& instance, const std::string& given_base,
                         Annotations& out) {
    if (schema.is_bool()) return schema.get_bool() ? true : fail("is not allowed here");
    if (!schema.is_object()) throw std::invalid_argument("a schema must be an object or a boolean");
    if (++depth_ > 256) {
        --depth_;
        throw std::invalid_argument("the schema refers to itself without end");
    }
    if (steps_left_-- == 0) {
        --depth_;
        throw TooManySteps{budget_};
    }
    const std::string* base = &given_base;
    if (auto known = c_.base_of.find(&schema); known != c_.base_of.end()) base = &known->second;
    // Entering another resource (a nested $id, or a reference into another document's
    // resource) extends the dynamic scope that $dynamicRef searches.
    bool resource = dynamic_scope_.empty() || *dynamic_scope_.back() != *base;
    if (resource) dynamic_scope_.push_back(base);
    Annotations local;
    bool ok = evaluate_keywords(schema.get_object(), instance, *base, local);
    if (resource) dynamic_scope_.pop_back();
    --depth_;
    if (ok && c_.needs_annotations) out.merge(local);
    return ok;
}

bool Evaluator::evaluate_keywords(const json::object& schema, const json::value& instance, const std::string& base,
                                  Annotations& local) {
    // draft-07: "$ref" stands alone; its siblings are ignored.
    if (c_.draft == Draft::draft7 && schema.contains("$ref")) return evaluate_reference(schema, instance, base, local);
    if (!evaluate_reference(schema, instance, base, local)) return false;

    if (auto* type = schema.if_contains("type")) {
        if (type->is_string()) {
            if (!has_type(instance, type->get_string()))
                return fail(std::string("must be ") + type_phrase(type->get_string()));
        } else if (type->is_array()) {
            bool any = false;
            std::string names;
            for (const auto& t : type->get_array()) {
                if (!t.is_string()) continue;
                any = any || has_type(instance, t.get_string());
                names += (names.empty() ? "" : ", ") + std::string(t.get_string());
            }
            if (!any) return fail("must be one of the types " + names);
        }
    }
    if (auto* values = schema.if_contains("enum"); values && values->is_array()) {
        bool found = false;
        for (const auto& v : values->get_array()) found = found || equal(v, instance);
        if (!found) {
            std::string allowed;
            for (const auto& v : values->get_array()) allowed += (allowed.empty() ? "" : ", ") + text_of(v);
            return fail("must be one of " + allowed);
        }
    }
    if (auto* value = schema.if_contains("const"); value && !equal(*value, instance))
        return fail("must be " + text_of(*value));

    if (is_number(instance) && !evaluate_number(schema, number(instance))) return false;
    if (instance.is_string()) {
        std::size_t length = code_points(instance.get_string());
        if (auto* limit = schema.if_contains("maxLength"); limit && is_number(*limit) && length > number(*limit))
            return fail("must be at most " + text_of(*limit) + " characters long");
        if (auto* limit = schema.if_contains("minLength"); limit && is_number(*limit) && length < number(*limit))
            return fail("must be at least " + text_of(*limit) + " characters long");
        if (auto* pattern = schema.if_contains("pattern"); pattern && pattern->is_string()) {
            const std::string text(instance.get_string());
            const Compiled::Pattern& compiled = c_.pattern(std::string(pattern->get_string()));
            if (compiled.backtracking && text.size() > Compiled::max_backtracking_text)
                return fail("is over " + std::to_string(Compiled::max_backtracking_text) +
                            " bytes, too long to check against the pattern " + text_of(*pattern) +
                            ", which uses back-references");
            if (!std::regex_search(text, compiled.expression)) return fail("must match the pattern " + text_of(*pattern));
        }
    }
    if (instance.is_array() && !evaluate_array(schema, instance.get_array(), base, local)) return false;
    if (instance.is_object() && !evaluate_object(schema, instance, base, local)) return false;
    if (!evaluate_applicators(schema, instance, base, local)) return false;
    if (c_.draft == Draft::draft2020 && !evaluate_unevaluated(schema, instance, base, local)) return false;
    return true;
}

bool Evaluator::evaluate_reference(const json::object& schema, const json::value& instance, const std::string& base,
                                   Annotations& local) {
    if (auto* reference = schema.if_contains("$ref"); reference && reference->is_string()) {
        std::string target_base;
        const json::value* target = c_.resolve(base, reference->get_string(), target_base);
        if (!target) throw std::invalid_argument("unresolvable $ref " + text_of(*reference));
        if (!in_place(*target, instance, target_base, local)) return false;
    }
    if (c_.draft != Draft::draft2020) return true;
    if (auto* reference = schema.if_contains("$dynamicRef"); reference && reference->is_string()) {
        std::string target_base;
        const json::value* target = c_.resolve(base, reference->get_string(), target_base);
        if (!target) throw std::invalid_argument("unresolvable $dynamicRef " + text_of(*reference));
        // A dynamic reference whose first target holds a matching $dynamicAnchor goes to the
        // outermost resource in the dynamic scope that has one.
        std::string_view text = reference->get_string();
        auto hash = text.find('#');
        if (hash != std::string_view::npos && target->is_object()) {
            std::string name(text.substr(hash + 1));
            auto* anchor = target->get_object().if_contains("$dynamicAnchor");
            if (anchor && anchor->is_string() && anchor->get_string() == name) {
                for (const std::string* scope : dynamic_scope_) {
                    std::string key = *scope + "#" + name;
                    if (c_.dynamic_anchors.contains(key)) {
                        target = c_.anchors.at(key);
                        target_base = c_.base_of.at(target);
                        break;
                    }
                }
            }
        }
        if (!in_place(*target, instance, target_base, local)) return false;
    }
    return true;
}

bool Evaluator::evaluate_number(const json::object& schema, double value) {
    if (auto* factor = schema.if_contains("multipleOf"); factor && is_number(*factor)) {
        double quotient = value / number(*factor);
        bool multiple = std::isfinite(quotient) && std::abs(quotient - std::round(quotient)) < 1e-9;
        if (!multiple) return fail("must be a multiple of " + text_of(*factor));
    }
    auto limit = [&](const char* keyword) -> const json::value* {
        auto* v = schema.if_contains(keyword);
        return v && is_number(*v) ? v : nullptr;
    };
    if (auto* v = limit("maximum"); v && value > number(*v)) return fail("must be at most " + text_of(*v));
    if (auto* v = limit("minimum"); v && value < number(*v)) return fail("must be at least " + text_of(*v));
    if (auto* v = limit("exclusiveMaximum"); v && value >= number(*v)) return fail("must be less than " + text_of(*v));
    if (auto* v = limit("exclusiveMinimum"); v && value <= number(*v)) return fail("must be greater than " + text_of(*v));
    return true;
}

}  // namespace schema_evaluation

using schema_evaluation::Evaluator;
using schema_evaluation::TooManySteps;

JsonSchema JsonSchema::compile(const json::value& schema) {
    if (!schema.is_object() && !schema.is_bool()) throw std::invalid_argument("a schema must be an object or a boolean");
    auto compiled = std::make_shared<Compiled>();
    compiled->document = schema;
    compiled->index();
    return JsonSchema(std::move(compiled));
}

std::optional<std::string> JsonSchema::validate(const json::value& instance) const {
    Evaluator evaluator(*compiled_);
    try {
        if (evaluator.run(instance)) return std::nullopt;
    } catch (const TooManySteps& stop) {
        return "(root): checking it against the schema took over " + std::to_string(stop.budget) +
               " steps, too many for a value of its size: the schema's allOf/anyOf/$ref branch out too much";
    }
    return evaluator.error.value_or("(root): does not match the schema");
}

bool JsonSchema::is_valid(const json::value& instance) const {
    Evaluator evaluator(*compiled_);
    try {
        return evaluator.run(instance);
    } catch (const TooManySteps&) {
        return false;
    }
}

}  // namespace mcp
