// The keywords that apply subschemas to an instance's parts or to the whole of it: items,
// prefixItems, contains, properties and their kin, allOf/anyOf/oneOf/not/if, and
// unevaluatedItems/unevaluatedProperties.

#include "schema/SchemaEvaluation.hpp"

namespace mcp::schema_evaluation {
using namespace schema_values;

bool Evaluator::evaluate_array(const json::object& schema, const json::array& array, const std::string& base,
                               Annotations& local) {
    const std::size_t size = array.size();
    auto count = [&](const char* keyword) -> std::optional<double> {
        auto* v = schema.if_contains(keyword);
        if (!v || !is_number(*v)) return std::nullopt;
        return number(*v);
    };
    if (auto n = count("maxItems"); n && size > *n) return fail("must have at most " + text_of(schema.at("maxItems")) + " items");
    if (auto n = count("minItems"); n && size < *n) return fail("must have at least " + text_of(schema.at("minItems")) + " items");
    if (auto* unique = schema.if_contains("uniqueItems"); unique && unique->is_bool() && unique->get_bool())
        if (auto twins = equal_items(array))
            return fail("must not hold the same item twice (items " + std::to_string(twins->first) + " and " +
                        std::to_string(twins->second) + " are equal)");
    // Positional and per-item schemas.
    std::size_t prefix = 0;
    const json::value* rest = nullptr;
    if (c_.draft == Draft::draft2020) {
        if (auto* items = schema.if_contains("prefixItems"); items && items->is_array()) {
            const auto& schemas = items->get_array();
            for (std::size_t i = 0; i < size && i < schemas.size(); ++i) {
                if (!child(schemas[i], array[i], base, index_segment(i))) return false;
                local.item(i, size);
            }
            prefix = schemas.size();
        }
        rest = schema.if_contains("items");
    } else if (auto* items = schema.if_contains("items")) {
        if (items->is_array()) {
            const auto& schemas = items->get_array();
            for (std::size_t i = 0; i < size && i < schemas.size(); ++i)
                if (!child(schemas[i], array[i], base, index_segment(i))) return false;
            prefix = schemas.size();
            rest = schema.if_contains("additionalItems");
        } else {
            rest = items;
        }
    }
    if (rest) {
        for (std::size_t i = prefix; i < size; ++i) {
            if (!child(*rest, array[i], base, index_segment(i))) return false;
            local.item(i, size);
        }
    }
    if (auto* contains = schema.if_contains("contains")) {
        std::size_t matches = 0;
        {
            Quiet quiet(*this);
            for (std::size_t i = 0; i < size; ++i)
                if (child(*contains, array[i], base, index_segment(i))) {
                    ++matches;
                    local.item(i, size);
                }
        }
        std::optional<double> at_least = c_.draft == Draft::draft2020 ? count("minContains") : std::nullopt;
        std::optional<double> at_most = c_.draft == Draft::draft2020 ? count("maxContains") : std::nullopt;
        double minimum = at_least.value_or(1);
        if (matches < minimum)
            return fail(minimum == 1 ? "must hold an item that matches \"contains\""
                                     : "must hold at least " + text_of(schema.at("minContains")) +
                                           " items that match \"contains\"");
        if (at_most && matches > *at_most)
            return fail("must hold at most " + text_of(schema.at("maxContains")) + " items that match \"contains\"");
    }
    return true;
}

bool Evaluator::evaluate_object(const json::object& schema, const json::value& instance, const std::string& base,
                                Annotations& local) {
    const json::object& object = instance.get_object();
    const double size = static_cast<double>(object.size());
    if (auto* n = schema.if_contains("maxProperties"); n && is_number(*n) && size > number(*n))
        return fail("must have at most " + text_of(*n) + " properties");
    if (auto* n = schema.if_contains("minProperties"); n && is_number(*n) && size < number(*n))
        return fail("must have at least " + text_of(*n) + " properties");
    if (auto* required = schema.if_contains("required"); required && required->is_array()) {
        for (const auto& name : required->get_array())
            if (name.is_string() && !object.contains(name.get_string())) {
                Segment s(*this, key_segment(name.get_string()));
                return fail("is required");
            }
    }
    auto require_all = [&](std::string_view present, const json::array& names) {
        for (const auto& name : names)
            if (name.is_string() && !object.contains(name.get_string())) {
                Segment s(*this, key_segment(name.get_string()));
                return fail("is required when \"" + std::string(present) + "\" is present");
            }
        return true;
    };
    if (auto* dependent = schema.if_contains(c_.draft == Draft::draft2020 ? "dependentRequired" : "dependencies");
        dependent && dependent->is_object()) {
        for (const auto& [name, names] : dependent->get_object())
            if (names.is_array() && object.contains(name) && !require_all(name, names.get_array())) return false;
    }
    const json::object* properties = nullptr;
    if (auto* p = schema.if_contains("properties"); p && p->is_object()) properties = &p->get_object();
    const json::object* patterns = nullptr;
    if (auto* p = schema.if_contains("patternProperties"); p && p->is_object()) patterns = &p->get_object();
    const json::value* additional = schema.if_contains("additionalProperties");
    const json::value* names_schema = schema.if_contains("propertyNames");

    for (const auto& [name, value] : object) {
        bool matched = false;
        if (properties) {
            if (auto* sub = properties->if_contains(name)) {
                matched = true;
                if (!child(*sub, value, base, key_segment(name))) return false;
            }
        }
        if (patterns) {
            const std::string key(name);
            for (const auto& [pattern, sub] : *patterns) {
                const Compiled::Pattern& compiled = c_.pattern(std::string(pattern));
                if (compiled.backtracking && key.size() > Compiled::max_backtracking_text)
                    return fail("the property name is over " + std::to_string(Compiled::max_backtracking_text) +
                                " bytes, too long to check against the pattern \"" + std::string(pattern) +
                                "\", which uses back-references");
                if (!std::regex_search(key, compiled.expression)) continue;
                matched = true;
                if (!child(sub, value, base, key_segment(name))) return false;
            }
        }
        if (!matched && additional) {
            if (additional->is_bool() && !additional->get_bool()) {
                Segment s(*this, key_segment(name));
                std::string allowed;
                if (properties)
                    for (const auto& [known, sub] : *properties) allowed += (allowed.empty() ? "" : ", ") + std::string(known);
                return fail(allowed.empty() ? "is not an allowed property"
                                            : "is not an allowed property (the properties are: " + allowed + ")");
            }
            if (!child(*additional, value, base, key_segment(name))) return false;
            matched = true;
        }
        if (matched) local.properties.emplace_back(name);
        if (names_schema) {
            bool ok;
            {
                Quiet quiet(*this);
                json::value key_value(json::string(name.data(), name.size()));
                ok = child(*names_schema, key_value, base, key_segment(name));
            }
            if (!ok) {
                Segment s(*this, key_segment(name));
                return fail("is not an allowed property name");
            }
        }
    }
    if (c_.draft == Draft::draft2020) {
        if (auto* dependent = schema.if_contains("dependentSchemas"); dependent && dependent->is_object())
            for (const auto& [name, sub] : dependent->get_object())
                if (object.contains(name) && !in_place(sub, instance, base, local)) return false;
    } else if (auto* dependent = schema.if_contains("dependencies"); dependent && dependent->is_object()) {
        for (const auto& [name, sub] : dependent->get_object())
            if (!sub.is_array() && object.contains(name) && !in_place(sub, instance, base, local)) return false;
    }
    return true;
}

bool Evaluator::evaluate_applicators(const json::object& schema, const json::value& instance, const std::string& base,
                                     Annotations& local) {
    if (auto* all = schema.if_contains("allOf"); all && all->is_array())
        for (const auto& sub : all->get_array())
            if (!in_place(sub, instance, base, local)) return false;
    if (auto* any = schema.if_contains("anyOf"); any && any->is_array()) {
        bool matched = false;
        {
            Quiet quiet(*this);
            for (const auto& sub : any->get_array()) {
                if (in_place(sub, instance, base, local)) matched = true;
                if (matched && !c_.needs_annotations) break;  // every branch counts only for annotations
            }
        }
        if (!matched) return fail("must match at least one of the schemas in \"anyOf\"");
    }
    if (auto* one = schema.if_contains("oneOf"); one && one->is_array()) {
        std::size_t matches = 0;
        Annotations chosen;
        {
            Quiet quiet(*this);
            for (const auto& sub : one->get_array()) {
                Annotations branch;
                if (in_place(sub, instance, base, branch)) {
                    ++matches;
                    chosen = std::move(branch);
                }
            }
        }
        if (matches != 1)
            return fail("must match exactly one of the schemas in \"oneOf\" (it matches " + std::to_string(matches) + ")");
        if (c_.needs_annotations) local.merge(chosen);
    }
    if (auto* negated = schema.if_contains("not")) {
        bool matched;
        {
            Quiet quiet(*this);
            Annotations ignored;
            matched = evaluate(*negated, instance, base, ignored);
        }
        if (matched) return fail("must not match the schema in \"not\"");
    }
    if (auto* condition = schema.if_contains("if")) {
        bool holds;
        Annotations from_if;
        {
            Quiet quiet(*this);
            holds = in_place(*condition, instance, base, from_if);
        }
        if (holds) local.merge(from_if);
        const json::value* branch = schema.if_contains(holds ? "then" : "else");
        if (branch && !in_place(*branch, instance, base, local)) return false;
    }
    return true;
}

bool Evaluator::evaluate_unevaluated(const json::object& schema, const json::value& instance, const std::string& base,
                                     Annotations& local) {
    if (auto* rest = schema.if_contains("unevaluatedItems"); rest && instance.is_array()) {
        const auto& array = instance.get_array();
        for (std::size_t i = 0; i < array.size(); ++i) {
            if (i < local.items.size() && local.items[i]) continue;
            if (rest->is_bool() && !rest->get_bool()) {
                Segment s(*this, index_segment(i));
                return fail("is not allowed here (an item no other keyword accounts for)");
            }
            if (!child(*rest, array[i], base, index_segment(i))) return false;
            local.item(i, array.size());
        }
    }
    if (auto* rest = schema.if_contains("unevaluatedProperties"); rest && instance.is_object()) {
        for (const auto& [name, value] : instance.get_object()) {
            if (local.has_property(name)) continue;
            if (rest->is_bool() && !rest->get_bool()) {
                Segment s(*this, key_segment(name));
                return fail("is not an allowed property");
            }
            if (!child(*rest, value, base, key_segment(name))) return false;
            local.properties.emplace_back(name);
        }
    }
    return true;
}

}  // namespace mcp::schema_evaluation
