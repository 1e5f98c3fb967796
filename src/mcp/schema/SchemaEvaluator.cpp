// Evaluates an instance against a compiled schema, keyword by keyword, as JSON Schema 2020-12
// (or draft-07) specifies. Annotations (which properties and items were evaluated) are collected
// only when the schema uses unevaluatedProperties/unevaluatedItems. The first failure outside a
// speculative branch (anyOf, oneOf, not, if, contains) becomes the message.

#include "schema/CompiledSchema.hpp"
#include "schema/JsonValues.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace mcp {
namespace json = boost::json;

namespace {

using Draft = JsonSchema::Compiled::Draft;
using Compiled = JsonSchema::Compiled;
using namespace schema_values;

/// What a schema evaluated in an instance, for unevaluatedProperties/unevaluatedItems.
struct Annotations {
    std::vector<std::string> properties;
    std::vector<bool> items;  ///< by index; sized on first use
    void item(std::size_t index, std::size_t size) {
        if (items.size() < size) items.resize(size, false);
        items[index] = true;
    }
    void merge(const Annotations& other) {
        properties.insert(properties.end(), other.properties.begin(), other.properties.end());
        if (items.size() < other.items.size()) items.resize(other.items.size(), false);
        for (std::size_t i = 0; i < other.items.size(); ++i)
            if (other.items[i]) items[i] = true;
    }
    bool has_property(std::string_view name) const {
        for (const auto& p : properties)
            if (p == name) return true;
        return false;
    }
};

/// Thrown when a schema needs more steps than its instance warrants: a schema from a server (or
/// an application) whose allOf/$ref fan out doubles the work at each level, 2^40 steps at 40.
struct TooManySteps {
    std::size_t budget;
};

/// Nodes of a JSON value, up to `limit`: what the step budget grows with.
std::size_t node_count(const json::value& value, std::size_t limit) {
    std::size_t count = 1;
    if (value.is_array())
        for (const auto& item : value.get_array()) {
            if (count >= limit) break;
            count += node_count(item, limit - count);
        }
    if (value.is_object())
        for (const auto& [key, member] : value.get_object()) {
            if (count >= limit) break;
            count += node_count(member, limit - count);
        }
    return count;
}

class Evaluator {
public:
    explicit Evaluator(const JsonSchema::Compiled& compiled) : c_(compiled) {}

    bool run(const json::value& instance) {
        // Room for every keyword of a large schema at each node, and far below a hang.
        steps_left_ = 100000 + 64 * node_count(instance, std::size_t{1} << 20);
        budget_ = steps_left_;
        Annotations annotations;
        return evaluate(c_.document, instance, c_.root_uri, annotations);
    }
    std::optional<std::string> error;

private:
    /// Speculative branches do not report; only the outcome counts.
    struct Quiet {
        explicit Quiet(Evaluator& e) : e_(e) { ++e_.quiet_; }
        ~Quiet() { --e_.quiet_; }
        Evaluator& e_;
    };
    /// One step of the instance path: a property name (a view into the instance or the schema,
    /// which outlive the evaluation) or an item index. Written out only for a message.
    struct PathPart {
        std::string_view key;
        std::size_t index = 0;
        bool is_key = true;
    };
    struct Segment {
        Segment(Evaluator& e, PathPart part) : e_(e) { e_.path_.push_back(part); }
        ~Segment() { e_.path_.pop_back(); }
        Evaluator& e_;
    };

    bool fail(const std::string& message) {
        if (quiet_ == 0 && !error) {
            std::string where;
            for (const auto& part : path_)
                where += "[" + (part.is_key ? std::string(part.key) : std::to_string(part.index)) + "]";
            error = (where.empty() ? "(root)" : where) + ": " + message;
        }
        return false;
    }
    static PathPart key_segment(std::string_view name) { return PathPart{name, 0, true}; }
    static PathPart index_segment(std::size_t index) { return PathPart{{}, index, false}; }

    bool evaluate(const json::value& schema, const json::value& instance, const std::string& base, Annotations& out);
    bool evaluate_keywords(const json::object& schema, const json::value& instance, const std::string& base,
                           Annotations& local);
    bool evaluate_reference(const json::object& schema, const json::value& instance, const std::string& base,
                            Annotations& local);
    bool evaluate_number(const json::object& schema, double value);
    bool evaluate_array(const json::object& schema, const json::array& array, const std::string& base, Annotations& local);
    bool evaluate_object(const json::object& schema, const json::value& instance, const std::string& base,
                         Annotations& local);
    bool evaluate_applicators(const json::object& schema, const json::value& instance, const std::string& base,
                              Annotations& local);
    bool evaluate_unevaluated(const json::object& schema, const json::value& instance, const std::string& base,
                              Annotations& local);
    /// A subschema at the same instance location, annotations merged into `into` when it passes.
    bool in_place(const json::value& schema, const json::value& instance, const std::string& base, Annotations& into) {
        Annotations sub;
        bool ok = evaluate(schema, instance, base, sub);
        if (ok && c_.needs_annotations) into.merge(sub);
        return ok;
    }
    /// A subschema at a child location (a property or an item): its annotations stay there.
    bool child(const json::value& schema, const json::value& instance, const std::string& base, PathPart segment) {
        Segment s(*this, segment);
        Annotations ignored;
        return evaluate(schema, instance, base, ignored);
    }

    const JsonSchema::Compiled& c_;
    /// The base URIs of the resources entered, outermost first (views of strings that outlive the
    /// evaluations that pushed them).
    std::vector<const std::string*> dynamic_scope_;
    std::vector<PathPart> path_;
    int quiet_ = 0;
    int depth_ = 0;
    std::size_t steps_left_ = 0;
    std::size_t budget_ = 0;
};

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
    if (auto* unique = schema.if_contains("uniqueItems"); unique && unique->is_bool() && unique->get_bool()) {
        // Sorted by a hash that agrees with equality, only items of one hash are compared: a
        // client's array of a million items costs a sort, not half a trillion comparisons.
        std::vector<std::pair<std::size_t, std::size_t>> hashes;  // hash, index
        hashes.reserve(size);
        for (std::size_t i = 0; i < size; ++i) hashes.emplace_back(hash_of(array[i]), i);
        std::sort(hashes.begin(), hashes.end());
        for (std::size_t start = 0; start < size;) {
            std::size_t end = start + 1;
            while (end < size && hashes[end].first == hashes[start].first) ++end;
            for (std::size_t a = start; a < end; ++a)
                for (std::size_t b = a + 1; b < end; ++b)
                    if (equal(array[hashes[a].second], array[hashes[b].second]))
                        return fail("must not hold the same item twice (items " + std::to_string(hashes[a].second) +
                                    " and " + std::to_string(hashes[b].second) + " are equal)");
            start = end;
        }
    }
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

}  // namespace

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
