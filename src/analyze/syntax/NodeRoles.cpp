#include "analyze/syntax/NodeRoles.hpp"

#include <array>
#include <mutex>
#include <string>
#include <unordered_map>

namespace mcpkit::analyze {

namespace {

struct Entry {
    std::string_view type;
    std::uint32_t roles;
};

using namespace role;

// Shared by the C family: C, C++, Java, JavaScript and TypeScript name these alike.
constexpr Entry c_entries[] = {
    {"function_definition", function},
    {"struct_specifier", type},
    {"union_specifier", type},
    {"enum_specifier", type},
    {"preproc_include", import},
    {"preproc_if", preprocessor_conditional},
    {"preproc_elif", preprocessor_conditional},
    {"if_statement", branch | statement},
    {"for_statement", loop | statement},
    {"while_statement", loop | statement},
    {"do_statement", loop | statement},
    {"case_statement", case_label},
    {"binary_expression", logical_operator},
    {"conditional_expression", ternary},
    {"comment", comment},
    {"else_clause", else_clause},
    {"switch_statement", switch_statement | statement},
    {"goto_statement", jump | statement},
    {"expression_statement", statement},
    {"return_statement", statement},
    {"break_statement", statement},
    {"continue_statement", statement},
    {"declaration", statement},
    {"parameter_list", parameter_list},
};

constexpr Entry cpp_extra[] = {
    {"class_specifier", type},
    {"namespace_definition", type},
    {"for_range_loop", loop | statement},
    {"catch_clause", handler},
    {"try_statement", try_statement | statement},
    {"lambda_expression", closure},
    {"throw_statement", statement},
    {"co_return_statement", statement},
};

constexpr Entry python_entries[] = {
    {"function_definition", function},
    {"class_definition", type},
    {"import_statement", import | statement},
    {"import_from_statement", import | statement},
    {"future_import_statement", import | statement},
    {"if_statement", branch | statement},
    {"elif_clause", else_if | statement},
    {"else_clause", else_clause | statement},
    {"for_statement", loop | statement},
    {"while_statement", loop | statement},
    {"try_statement", try_statement | statement},
    {"except_clause", handler | statement},
    {"except_group_clause", handler | statement},
    {"finally_clause", statement},
    {"with_statement", statement},
    {"boolean_operator", logical_operator},
    {"binary_operator", operation},
    {"unary_operator", operation},
    {"not_operator", operation},
    {"comparison_operator", operation},
    {"augmented_assignment", operation},
    {"conditional_expression", ternary},
    {"for_in_clause", comprehension},
    {"if_clause", comprehension},
    {"match_statement", switch_statement | statement},
    {"case_clause", case_label | statement},
    {"lambda", closure},
    {"comment", comment},
    {"string", string},
    {"block", block},
    {"module", block},
    {"assert_statement", assertion | statement},
    {"expression_statement", statement},
    {"return_statement", statement},
    {"pass_statement", statement},
    {"break_statement", statement},
    {"continue_statement", statement},
    {"raise_statement", statement},
    {"global_statement", statement},
    {"nonlocal_statement", statement},
    {"delete_statement", statement},
    {"print_statement", statement},
    {"exec_statement", statement},
    {"type_alias_statement", statement},
    {"decorated_definition", statement},
    {"parameters", parameter_list},
    {"lambda_parameters", parameter_list},
};

constexpr Entry javascript_entries[] = {
    {"function_declaration", function},
    {"generator_function_declaration", function},
    {"method_definition", function},
    {"function_expression", closure},
    {"generator_function", closure},
    {"arrow_function", closure},
    {"class_declaration", type},
    {"class", type},
    {"import_statement", import | statement},
    {"if_statement", branch | statement},
    {"for_statement", loop | statement},
    {"for_in_statement", loop | statement},
    {"while_statement", loop | statement},
    {"do_statement", loop | statement},
    {"switch_case", case_label},
    {"switch_default", default_label},
    {"switch_statement", switch_statement | statement},
    {"catch_clause", handler},
    {"try_statement", try_statement | statement},
    {"ternary_expression", ternary},
    {"binary_expression", logical_operator},
    {"else_clause", else_clause},
    {"comment", comment},
    {"expression_statement", statement},
    {"lexical_declaration", statement},
    {"variable_declaration", statement},
    {"return_statement", statement},
    {"throw_statement", statement},
    {"break_statement", statement},
    {"continue_statement", statement},
    {"formal_parameters", parameter_list},
};

constexpr Entry typescript_extra[] = {
    {"abstract_class_declaration", type},
    {"interface_declaration", type},
    {"enum_declaration", type},
    {"internal_module", type},
};

constexpr Entry go_entries[] = {
    {"function_declaration", function},
    {"method_declaration", function},
    {"func_literal", closure},
    {"type_spec", type},
    {"import_spec", import},
    {"if_statement", branch | statement},
    {"for_statement", loop | statement},
    {"expression_case", case_label},
    {"type_case", case_label},
    {"communication_case", case_label},
    {"default_case", default_label},
    {"expression_switch_statement", switch_statement | statement},
    {"type_switch_statement", switch_statement | statement},
    {"select_statement", switch_statement | statement},
    {"binary_expression", logical_operator},
    {"goto_statement", jump | statement},
    {"comment", comment},
    {"expression_statement", statement},
    {"short_var_declaration", statement},
    {"assignment_statement", statement},
    {"return_statement", statement},
    {"go_statement", statement},
    {"defer_statement", statement},
    {"parameter_list", parameter_list},
};

constexpr Entry rust_entries[] = {
    {"function_item", function},
    {"closure_expression", closure},
    {"struct_item", type},
    {"enum_item", type},
    {"union_item", type},
    {"trait_item", type},
    {"impl_item", type},
    {"mod_item", type | import},
    {"use_declaration", import | statement},
    {"extern_crate_declaration", import | statement},
    {"if_expression", branch},
    {"while_expression", loop},
    {"for_expression", loop},
    {"loop_expression", loop},
    {"match_expression", match | switch_statement},
    {"match_arm", case_label},
    {"binary_expression", logical_operator},
    {"else_clause", else_clause},
    {"line_comment", comment},
    {"block_comment", comment},
    {"expression_statement", statement},
    {"let_declaration", statement},
    {"parameters", parameter_list},
};

constexpr Entry java_entries[] = {
    {"method_declaration", function},
    {"constructor_declaration", function},
    {"compact_constructor_declaration", function},
    {"lambda_expression", closure},
    {"class_declaration", type},
    {"interface_declaration", type},
    {"enum_declaration", type},
    {"record_declaration", type},
    {"annotation_type_declaration", type},
    {"import_declaration", import},
    {"if_statement", branch | statement},
    {"for_statement", loop | statement},
    {"enhanced_for_statement", loop | statement},
    {"while_statement", loop | statement},
    {"do_statement", loop | statement},
    {"switch_label", case_label},
    {"switch_expression", switch_statement},
    {"catch_clause", handler},
    {"try_statement", try_statement | statement},
    {"try_with_resources_statement", try_statement | statement},
    {"ternary_expression", ternary},
    {"binary_expression", logical_operator},
    {"line_comment", comment},
    {"block_comment", comment},
    {"expression_statement", statement},
    {"local_variable_declaration", statement},
    {"return_statement", statement},
    {"throw_statement", statement},
    {"break_statement", statement},
    {"continue_statement", statement},
    {"formal_parameters", parameter_list},
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
    case Language::javascript: add(javascript_entries); break;
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

}  // namespace

NodeRoles::NodeRoles(Language language) {
    const TSLanguage* grammar_language = grammar(language);
    std::unordered_map<std::string_view, std::uint32_t> by_name;
    for (const Entry& entry : entries_for(language)) by_name[entry.type] |= entry.roles;
    std::uint32_t count = ts_language_symbol_count(grammar_language);
    roles_.assign(count, 0);
    // A name may belong to several symbols (aliases): every named symbol of that name gets the roles.
    for (TSSymbol symbol = 0; symbol < count; ++symbol) {
        if (ts_language_symbol_type(grammar_language, symbol) != TSSymbolTypeRegular) continue;
        auto found = by_name.find(ts_language_symbol_name(grammar_language, symbol));
        if (found != by_name.end()) roles_[symbol] = found->second;
    }
}

const NodeRoles& NodeRoles::of(Language language) {
    static std::array<std::once_flag, language_count> once;
    static std::array<const NodeRoles*, language_count> tables{};
    auto index = static_cast<std::size_t>(language);
    std::call_once(once[index], [&] { tables[index] = new NodeRoles(language); });
    return *tables[index];
}

std::vector<std::string_view> NodeRoles::names_used(Language language) {
    std::vector<std::string_view> names;
    for (const Entry& entry : entries_for(language)) names.push_back(entry.type);
    return names;
}

}  // namespace mcpkit::analyze
