#include "analyze/navigation/NavigationGrammar.hpp"

#include <array>
#include <iterator>
#include <mutex>
#include <unordered_map>

namespace mcpkit::analyze {

namespace {

using R = NavigationRole;

struct Entry {
    std::string_view type;
    NavigationRole role;
};

constexpr Entry c_entries[] = {
    {"identifier", R::identifier},
    {"type_identifier", R::type_identifier},
    {"field_identifier", R::member_name},
    {"function_definition", R::function},
    {"struct_specifier", R::type},
    {"union_specifier", R::type},
    {"enum_specifier", R::type},
    {"enumerator", R::enum_member},
    {"preproc_def", R::macro},
    {"preproc_function_def", R::macro},
    {"type_definition", R::type_definition},
    {"declaration", R::value},
    {"field_declaration", R::field},
    {"parameter_declaration", R::local_binding},
    {"call_expression", R::call},
    {"field_expression", R::member_access},
    {"assignment_expression", R::assignment},
    {"update_expression", R::update},
    {"preproc_include", R::import},
    {"comment", R::comment},
    {"string_literal", R::opaque},
    {"char_literal", R::opaque},
    {"number_literal", R::opaque},
    {"attribute_specifier", R::opaque},  // __attribute__((section(".x"))): not calls
    {"ms_declspec_modifier", R::opaque},
    {"ERROR", R::error},
};

constexpr Entry cpp_extra[] = {
    {"raw_string_literal", R::opaque},
    {"class_specifier", R::type},
    {"namespace_definition", R::type},
    {"alias_declaration", R::type},
    {"lambda_expression", R::closure},
    {"qualified_identifier", R::scoped_name},
    {"template_function", R::scoped_name},
    {"new_expression", R::constructor_call},
    {"for_range_loop", R::local_binding},
    {"optional_parameter_declaration", R::local_binding},
    {"variadic_parameter_declaration", R::local_binding},
};

constexpr Entry python_entries[] = {
    {"identifier", R::identifier},
    {"function_definition", R::function},
    {"class_definition", R::type},
    {"lambda", R::closure},
    {"list_comprehension", R::closure},
    {"set_comprehension", R::closure},
    {"dictionary_comprehension", R::closure},
    {"generator_expression", R::closure},
    {"call", R::call},
    {"attribute", R::member_access},
    {"assignment", R::assignment},
    {"augmented_assignment", R::assignment},
    {"import_statement", R::import},
    {"import_from_statement", R::import},
    {"future_import_statement", R::import},
    {"parameters", R::local_binding},
    {"lambda_parameters", R::local_binding},
    {"for_statement", R::local_binding},
    {"for_in_clause", R::local_binding},
    {"as_pattern", R::local_binding},
    {"named_expression", R::local_binding},
    {"global_statement", R::global_statement},
    {"nonlocal_statement", R::global_statement},
    {"type", R::type_context},
    {"pattern_list", R::expression_list},
    {"tuple_pattern", R::expression_list},
    {"list_pattern", R::expression_list},
    {"comment", R::comment},
    {"decorator", R::transparent_prefix},
    {"ERROR", R::error},
};

constexpr Entry javascript_entries[] = {
    {"identifier", R::identifier},
    {"shorthand_property_identifier", R::identifier},
    {"property_identifier", R::member_name},
    {"private_property_identifier", R::member_name},
    {"function_declaration", R::function},
    {"generator_function_declaration", R::function},
    {"method_definition", R::function},
    {"class_declaration", R::type},
    {"class", R::type},
    {"function_expression", R::closure},
    {"arrow_function", R::closure},
    {"generator_function", R::closure},
    {"call_expression", R::call},
    {"new_expression", R::constructor_call},
    {"member_expression", R::member_access},
    {"assignment_expression", R::assignment},
    {"augmented_assignment_expression", R::assignment},
    {"update_expression", R::update},
    {"import_statement", R::import},
    {"lexical_declaration", R::value},
    {"variable_declaration", R::value},
    {"formal_parameters", R::local_binding},
    {"for_in_statement", R::local_binding},
    {"catch_clause", R::local_binding},
    {"export_statement", R::export_statement},
    {"pair", R::property_pair},
    {"comment", R::comment},
    {"string", R::opaque},
    {"number", R::opaque},
    {"regex", R::opaque},
    {"decorator", R::transparent_prefix},
    {"ERROR", R::error},
};

// TypeScript calls it public_field_definition.
constexpr Entry javascript_only[] = {
    {"field_definition", R::field},
};

constexpr Entry typescript_extra[] = {
    {"type_identifier", R::type_identifier},
    {"abstract_class_declaration", R::type},
    {"interface_declaration", R::type},
    {"type_alias_declaration", R::type},
    {"enum_declaration", R::type},
    {"internal_module", R::type},
    {"module", R::type},
    {"function_signature", R::function},
    {"method_signature", R::function},
    {"abstract_method_signature", R::function},
    {"public_field_definition", R::field},
    {"property_signature", R::field},
    {"enum_assignment", R::enum_member},
    {"nested_type_identifier", R::scoped_name},
    {"required_parameter", R::local_binding},
    {"optional_parameter", R::local_binding},
    {"type_annotation", R::type_context},
};

constexpr Entry go_entries[] = {
    {"identifier", R::identifier},
    {"type_identifier", R::type_identifier},
    {"field_identifier", R::member_name},
    {"function_declaration", R::function},
    {"method_declaration", R::function},
    {"method_elem", R::function},
    {"type_spec", R::type},
    {"type_alias", R::type},
    {"const_spec", R::value},
    {"var_spec", R::value},
    {"field_declaration", R::field},
    {"func_literal", R::closure},
    {"call_expression", R::call},
    {"selector_expression", R::member_access},
    {"qualified_type", R::scoped_name},
    {"assignment_statement", R::assignment},
    {"expression_list", R::expression_list},
    {"inc_statement", R::update},
    {"dec_statement", R::update},
    {"short_var_declaration", R::local_binding},
    {"range_clause", R::local_binding},
    {"parameter_declaration", R::local_binding},
    {"variadic_parameter_declaration", R::local_binding},
    {"type_switch_statement", R::local_binding},
    {"import_declaration", R::import},
    {"package_clause", R::package},
    {"comment", R::comment},
    {"interpreted_string_literal", R::opaque},
    {"raw_string_literal", R::opaque},
    {"rune_literal", R::opaque},
    {"ERROR", R::error},
};

constexpr Entry rust_entries[] = {
    {"identifier", R::identifier},
    {"shorthand_field_identifier", R::identifier},
    {"type_identifier", R::type_identifier},
    {"field_identifier", R::member_name},
    {"function_item", R::function},
    {"function_signature_item", R::function},
    {"struct_item", R::type},
    {"enum_item", R::type},
    {"union_item", R::type},
    {"trait_item", R::type},
    {"type_item", R::type},
    {"mod_item", R::type},
    {"impl_item", R::container},
    {"const_item", R::value},
    {"static_item", R::value},
    {"field_declaration", R::field},
    {"enum_variant", R::enum_member},
    {"macro_definition", R::macro},
    {"closure_expression", R::closure},
    {"call_expression", R::call},
    {"macro_invocation", R::call},
    {"field_expression", R::member_access},
    {"scoped_identifier", R::scoped_name},
    {"scoped_type_identifier", R::scoped_name},
    {"assignment_expression", R::assignment},
    {"compound_assignment_expr", R::assignment},
    {"let_declaration", R::local_binding},
    {"for_expression", R::local_binding},
    {"parameters", R::local_binding},
    {"closure_parameters", R::local_binding},
    {"let_condition", R::local_binding},
    {"match_pattern", R::local_binding},
    {"use_declaration", R::import},
    {"extern_crate_declaration", R::import},
    {"line_comment", R::comment},
    {"block_comment", R::comment},
    {"attribute_item", R::transparent_prefix},
    {"string_literal", R::opaque},
    {"raw_string_literal", R::opaque},
    {"char_literal", R::opaque},
    {"ERROR", R::error},
};

constexpr Entry java_entries[] = {
    {"identifier", R::identifier},
    {"type_identifier", R::type_identifier},
    {"class_declaration", R::type},
    {"interface_declaration", R::type},
    {"enum_declaration", R::type},
    {"record_declaration", R::type},
    {"annotation_type_declaration", R::type},
    {"method_declaration", R::function},
    {"constructor_declaration", R::function},
    {"compact_constructor_declaration", R::function},
    {"annotation_type_element_declaration", R::function},
    {"field_declaration", R::field},
    {"constant_declaration", R::field},
    {"enum_constant", R::enum_member},
    {"lambda_expression", R::closure},
    {"method_invocation", R::call},
    {"object_creation_expression", R::constructor_call},
    {"field_access", R::member_access},
    {"scoped_identifier", R::scoped_name},
    {"scoped_type_identifier", R::scoped_name},
    {"assignment_expression", R::assignment},
    {"update_expression", R::update},
    {"local_variable_declaration", R::local_binding},
    {"formal_parameters", R::local_binding},
    {"catch_formal_parameter", R::local_binding},
    {"enhanced_for_statement", R::local_binding},
    {"resource", R::local_binding},
    {"inferred_parameters", R::local_binding},
    {"import_declaration", R::import},
    {"package_declaration", R::package},
    {"line_comment", R::comment},
    {"block_comment", R::comment},
    {"string_literal", R::opaque},
    {"character_literal", R::opaque},
    {"ERROR", R::error},
};

std::vector<Entry> entries_for(Language language) {
    std::vector<Entry> entries;
    auto add = [&](auto& table) { entries.insert(entries.end(), std::begin(table), std::end(table)); };
    switch (language) {
    case Language::c: add(c_entries); break;
    case Language::cpp:
        add(c_entries);
        add(cpp_extra);
        break;
    case Language::python: add(python_entries); break;
    case Language::javascript:
        add(javascript_entries);
        add(javascript_only);
        break;
    case Language::typescript:
    case Language::tsx:
        add(javascript_entries);
        add(typescript_extra);
        break;
    case Language::go: add(go_entries); break;
    case Language::rust: add(rust_entries); break;
    case Language::java: add(java_entries); break;
    }
    return entries;
}

// Field names, each resolved to its id (0 when the grammar has no such field).
struct FieldName {
    std::string_view name;
    TSFieldId NavigationFields::*member;
};
constexpr FieldName field_names[] = {
    {"name", &NavigationFields::name},           {"declarator", &NavigationFields::declarator},
    {"type", &NavigationFields::type},           {"value", &NavigationFields::value},
    {"left", &NavigationFields::left},           {"right", &NavigationFields::right},
    {"body", &NavigationFields::body},           {"function", &NavigationFields::function},
    {"arguments", &NavigationFields::arguments}, {"object", &NavigationFields::object},
    {"operand", &NavigationFields::operand},     {"field", &NavigationFields::field},
    {"property", &NavigationFields::property},   {"attribute", &NavigationFields::attribute},
    {"scope", &NavigationFields::scope},         {"path", &NavigationFields::path},
    {"parameters", &NavigationFields::parameters}, {"receiver", &NavigationFields::receiver},
    {"pattern", &NavigationFields::pattern},     {"trait", &NavigationFields::trait},
    {"superclass", &NavigationFields::superclass}, {"interfaces", &NavigationFields::interfaces},
    {"argument", &NavigationFields::argument},   {"alias", &NavigationFields::alias},
    {"module_name", &NavigationFields::module_name}, {"source", &NavigationFields::source},
    {"constructor", &NavigationFields::constructor}, {"macro", &NavigationFields::macro},
    {"key", &NavigationFields::key},             {"default_value", &NavigationFields::default_value},
    {"return_type", &NavigationFields::return_type}, {"result", &NavigationFields::result},
    {"type_parameters", &NavigationFields::type_parameters}, {"bounds", &NavigationFields::bounds},
    {"label", &NavigationFields::label},         {"condition", &NavigationFields::condition},
    {"index", &NavigationFields::index},         {"size", &NavigationFields::size},
    {"initializer", &NavigationFields::initializer}, {"update", &NavigationFields::update},
    {"consequence", &NavigationFields::consequence}, {"alternative", &NavigationFields::alternative},
    {"parameter", &NavigationFields::parameter}, {"package", &NavigationFields::package},
    {"module", &NavigationFields::module},       {"list", &NavigationFields::list},
    {"members", &NavigationFields::members},     {"superclasses", &NavigationFields::superclasses},
};

}  // namespace

NavigationGrammar::NavigationGrammar(Language language) : language_(language) {
    const TSLanguage* grammar_language = grammar(language);
    std::unordered_map<std::string_view, NavigationRole> by_name;
    for (const Entry& entry : entries_for(language)) by_name[entry.type] = entry.role;
    std::uint32_t count = ts_language_symbol_count(grammar_language);
    roles_.assign(count, NavigationRole::none);
    // A name may belong to several symbols (aliases): every named symbol of that name gets the role.
    for (TSSymbol symbol = 0; symbol < count; ++symbol) {
        if (ts_language_symbol_type(grammar_language, symbol) != TSSymbolTypeRegular) continue;
        auto found = by_name.find(ts_language_symbol_name(grammar_language, symbol));
        if (found != by_name.end()) roles_[symbol] = found->second;
    }
    for (const FieldName& field : field_names)
        fields_.*field.member =
            ts_language_field_id_for_name(grammar_language, field.name.data(), static_cast<std::uint32_t>(field.name.size()));
}

const NavigationGrammar& NavigationGrammar::of(Language language) {
    static std::array<std::once_flag, language_count> once;
    static std::array<const NavigationGrammar*, language_count> tables{};
    auto index = static_cast<std::size_t>(language);
    std::call_once(once[index], [&] { tables[index] = new NavigationGrammar(language); });
    return *tables[index];
}

std::vector<std::string_view> NavigationGrammar::names_used(Language language) {
    std::vector<std::string_view> names;
    for (const Entry& entry : entries_for(language)) names.push_back(entry.type);
    return names;
}

std::vector<std::string_view> NavigationGrammar::fields_used() {
    std::vector<std::string_view> names;
    for (const FieldName& field : field_names) names.push_back(field.name);
    return names;
}

}  // namespace mcpkit::analyze
