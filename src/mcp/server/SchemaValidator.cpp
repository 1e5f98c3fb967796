#include "server/SchemaValidator.hpp"

#include "mcp/jsonrpc/JsonWriter.hpp"
#include "server/SimpleSchema.hpp"

#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <cstdlib>
#include <stdexcept>

namespace mcp::detail {

namespace {

/// The subschema that the error context ("<root>", "[mode]", "[0]" …) points at, if it is plain
/// properties/items nesting.
const boost::json::object* schema_at(const boost::json::value& root, const std::vector<std::string>& context) {
    const boost::json::object* node = root.if_object();
    for (std::size_t i = 1; node && i < context.size(); ++i) {
        std::string_view token = context[i];
        if (token.size() < 2 || token.front() != '[' || token.back() != ']') return nullptr;
        token = token.substr(1, token.size() - 2);
        const boost::json::value* next = nullptr;
        if (auto* properties = node->if_contains("properties"); properties && properties->is_object())
            next = properties->get_object().if_contains(token);
        if (!next) next = node->if_contains("items");
        node = next ? next->if_object() : nullptr;
    }
    return node;
}

/// valijson's words for the two most common mistakes, said with the schema's own values:
/// "must be one of \"a\", \"b\"" and "must be a string".
std::string explain(const std::string& description, const boost::json::object* schema) {
    if (!schema) return description;
    if (description.find("enum") != std::string::npos) {
        if (auto* values = schema->if_contains("enum"); values && values->is_array() && !values->get_array().empty()) {
            std::string allowed;
            for (const auto& value : values->get_array()) allowed += (allowed.empty() ? "" : ", ") + jsonrpc::to_json_text(value);
            return "must be one of " + allowed;
        }
    }
    if (description.find("'type' constraint") != std::string::npos) {
        if (auto* type = schema->if_contains("type"); type && type->is_string()) {
            std::string_view name = type->get_string();
            bool vowel = name == "integer" || name == "object" || name == "array";
            return std::string("must be ") + (name == "null" ? "" : vowel ? "an " : "a ") + std::string(name);
        }
    }
    return description;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// valijson prints limits with std::to_string ("less than or equal to 1000.000000"); a person or
/// a model reading the message expects them as JSON writes them ("1000", "0.5").
std::string with_json_numbers(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (!is_digit(text[i]) || (i > 0 && (is_digit(text[i - 1]) || text[i - 1] == '.'))) {
            out += text[i++];
            continue;
        }
        std::size_t dot = i;
        while (dot < text.size() && is_digit(text[dot])) ++dot;
        std::size_t end = dot + 1;
        while (end < text.size() && is_digit(text[end])) ++end;
        if (dot < text.size() && text[dot] == '.' && end - dot - 1 == 6) {
            out += jsonrpc::to_json_text(boost::json::value(std::strtod(text.c_str() + i, nullptr)));
            i = end;
        } else {
            out.append(text, i, dot - i);
            i = dot;
        }
    }
    return out;
}

}  // namespace

struct SchemaValidator::Compiled {
    boost::json::value document;  // valijson keeps references into the parsed document
    valijson::Schema schema;
    std::optional<SimpleSchema> fast;
};

SchemaValidator::SchemaValidator(const boost::json::object& schema, bool allow_fast_path)
    : compiled_(std::make_unique<Compiled>()) {
    compiled_->document = schema;
    if (allow_fast_path) compiled_->fast = SimpleSchema::compile(schema);
    try {
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        valijson::adapters::BoostJsonAdapter adapter(compiled_->document);
        parser.populateSchema(adapter, compiled_->schema);
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("unusable JSON Schema: ") + e.what());
    }
}

SchemaValidator::~SchemaValidator() = default;

std::optional<std::string> SchemaValidator::validate(const boost::json::object& instance) const {
    if (compiled_->fast) return compiled_->fast->validate_object(instance);
    return validate(boost::json::value(instance));
}

std::optional<std::string> SchemaValidator::validate(const boost::json::value& instance) const {
    if (compiled_->fast) return compiled_->fast->validate(instance);
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::ValidationResults results;
    valijson::adapters::BoostJsonAdapter adapter(instance);
    if (validator.validate(compiled_->schema, adapter, &results)) return std::nullopt;
    // The deepest error names the field best; valijson reports outer errors first.
    valijson::ValidationResults::Error error;
    std::string best_path;
    std::string best_description;
    std::size_t best_depth = 0;
    bool first = true;
    while (results.popError(error)) {
        if (first || error.context.size() > best_depth) {
            best_depth = error.context.size();
            best_path.clear();
            for (std::size_t i = 1; i < error.context.size(); ++i) best_path += error.context[i];
            best_description =
                with_json_numbers(explain(error.description, schema_at(compiled_->document, error.context)));
            first = false;
        }
    }
    if (best_path.empty()) return best_description;
    return best_path + ": " + best_description;
}

}  // namespace mcp::detail
