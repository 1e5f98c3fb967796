#include "server/SchemaValidator.hpp"

#include "mcp/schema/JsonSchema.hpp"
#include "server/SimpleSchema.hpp"

#include <stdexcept>

namespace mcp::detail {

struct SchemaValidator::Compiled {
    std::optional<JsonSchema> schema;
    std::optional<SimpleSchema> fast;
};

SchemaValidator::SchemaValidator(const boost::json::object& schema, bool allow_fast_path)
    : compiled_(std::make_unique<Compiled>()) {
    if (allow_fast_path) compiled_->fast = SimpleSchema::compile(schema);
    try {
        compiled_->schema = JsonSchema::compile(schema);
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
    try {
        return compiled_->schema->validate(instance);
    } catch (const std::exception& e) {
        // A schema that recurses without end is only found out on some instance.
        return std::string("the schema cannot be evaluated: ") + e.what();
    }
}

}  // namespace mcp::detail
