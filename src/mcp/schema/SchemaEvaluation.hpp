#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// The evaluation of one instance against a compiled schema, shared by SchemaEvaluator.cpp (the
// keywords on the instance itself, references, and the public JsonSchema calls) and
// SchemaApplicators.cpp (the keywords that apply subschemas: items, properties, allOf, …).

#include "schema/CompiledSchema.hpp"
#include "schema/JsonValues.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::schema_evaluation {
namespace json = boost::json;

using Draft = JsonSchema::Compiled::Draft;
using Compiled = JsonSchema::Compiled;

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

class Evaluator {
public:
    explicit Evaluator(const JsonSchema::Compiled& compiled) : c_(compiled) {}

    bool run(const json::value& instance) {
        // Room for every keyword of a large schema at each node, and far below a hang.
        steps_left_ = 100000 + 64 * schema_values::node_count(instance, std::size_t{1} << 20);
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

}  // namespace mcp::schema_evaluation
