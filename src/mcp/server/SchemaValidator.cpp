#include "server/SchemaValidator.hpp"

#include "server/SimpleSchema.hpp"

#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <stdexcept>

namespace mcp::detail {

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
            best_description = error.description;
            first = false;
        }
    }
    if (best_path.empty()) return best_description;
    return best_path + ": " + best_description;
}

}  // namespace mcp::detail
