// Names bound locally (parameters, local variables, loop and catch variables, patterns) and names
// bound by imports. Locals are left out of the index: the walk skips their uses, so the index
// holds what other definitions and files can reach.

#include "analyze/navigation/SymbolExtraction.hpp"

#include <cstring>

namespace mcpkit::analyze::extraction {

void Extraction::bind_statement(Frame& frame) {
    TSNode node = frame.node;
    const char* type = ts_node_type(node);
    switch (language_) {
    case Language::go:
        if (std::strcmp(type, "range_clause") == 0) {
            TSNode left = child(node, fields_.left), right = child(node, fields_.right);
            if (ts_node_is_null(left) || ts_node_is_null(right)) return;  // `for range ch`
            std::string_view between = tree_.source().substr(ts_node_end_byte(left), ts_node_start_byte(right) - ts_node_end_byte(left));
            if (between.find(":=") == std::string_view::npos) return;
            bind_pattern(left);
        } else if (std::strcmp(type, "short_var_declaration") == 0) {
            // x, y := T{}, &U{}: each name gets the type of its value, when the value shows one.
            TSNode left = child(node, fields_.left), right = child(node, fields_.right);
            if (named_count(left) == named_count(right)) {
                for (std::uint32_t i = 0, n = named_count(left); i < n; ++i) {
                    TSNode name = named_child(left, i);
                    if (role(name) == NavigationRole::identifier) bind_local(name, type_of_value(named_child(right, i)));
                }
            } else {
                bind_pattern(left);
            }
        } else if (std::strcmp(type, "type_switch_statement") == 0) {
            bind_pattern(child(node, fields_.alias));
        } else {
            std::string_view declared = type_name_of(child(node, fields_.type));  // parameters, local const/var
            each_in_field(node, fields_.name, [&](TSNode name) { bind_local(name, declared); });
        }
        return;
    case Language::c:
    case Language::cpp: {
        std::string_view declared = type_name_of(child(node, fields_.type));
        if (std::strcmp(type, "declaration") == 0) {
            each_in_field(node, fields_.declarator, [&](TSNode declarator) {
                if (type_is(declarator, "init_declarator")) declarator = child(declarator, fields_.declarator);
                // `extern int h(int);` inside a body declares a function, not a local: its calls stay uses.
                if (declares_function(declarator)) {
                    skip_name(declarator_name(declarator));
                    return;
                }
                bind_local(declarator_name(declarator), declared);
            });
        } else {
            bind_local(declarator_name(child(node, fields_.declarator)), declared);
        }
        return;
    }
    case Language::python:
        if (std::strcmp(type, "for_statement") == 0 || std::strcmp(type, "for_in_clause") == 0) {
            bind_pattern(child(node, fields_.left));
        } else if (std::strcmp(type, "as_pattern") == 0) {
            bind_pattern(child(node, fields_.alias));
        } else if (std::strcmp(type, "named_expression") == 0) {
            bind_local(child(node, fields_.name));
        } else {
            bind_pattern(node);  // parameters
        }
        return;
    case Language::javascript:
    case Language::typescript:
    case Language::tsx:
        if (std::strcmp(type, "for_in_statement") == 0) {
            bind_pattern(child(node, fields_.left));
        } else if (std::strcmp(type, "catch_clause") == 0) {
            bind_pattern(child(node, fields_.parameter));
        } else if (std::strcmp(type, "lexical_declaration") == 0 || std::strcmp(type, "variable_declaration") == 0) {
            for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
                TSNode declarator = named_child(node, i);
                TSNode name = child(declarator, fields_.name);
                if (role(name) != NavigationRole::identifier) {
                    bind_pattern(name);
                    continue;
                }
                std::string_view declared = type_name_of(child(declarator, fields_.type));
                bind_local(name, declared.empty() ? type_of_value(child(declarator, fields_.value)) : declared);
            }
        } else if (std::strcmp(type, "required_parameter") == 0 || std::strcmp(type, "optional_parameter") == 0) {
            TSNode pattern = child(node, fields_.pattern);
            if (role(pattern) == NavigationRole::identifier)
                bind_local(pattern, type_name_of(child(node, fields_.type)));
            else
                bind_pattern(pattern);
        } else {
            bind_pattern(node);  // formal_parameters
        }
        return;
    case Language::rust:
        if (std::strcmp(type, "parameters") == 0 || std::strcmp(type, "closure_parameters") == 0) {
            for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
                TSNode parameter = named_child(node, i);
                TSNode pattern = type_is(parameter, "parameter") ? child(parameter, fields_.pattern) : parameter;
                if (type_is(parameter, "parameter") && role(pattern) == NavigationRole::identifier)
                    bind_local(pattern, type_name_of(child(parameter, fields_.type)));
                else
                    bind_pattern(pattern);
            }
        } else if (std::strcmp(type, "let_declaration") == 0) {
            TSNode pattern = child(node, fields_.pattern);
            std::string_view declared = type_name_of(child(node, fields_.type));
            if (declared.empty()) declared = type_of_value(child(node, fields_.value));
            if (role(pattern) == NavigationRole::identifier)
                bind_local(pattern, declared);
            else
                bind_pattern(pattern);
        } else if (std::strcmp(type, "match_pattern") == 0) {
            bind_pattern(named_child(node, 0));
        } else {
            bind_pattern(child(node, fields_.pattern));  // let, for, if let
        }
        return;
    case Language::java:
        if (std::strcmp(type, "local_variable_declaration") == 0) {
            std::string_view declared = type_name_of(child(node, fields_.type));
            each_in_field(node, fields_.declarator, [&](TSNode declarator) {
                bind_local(child(declarator, fields_.name), declared.empty() ? type_of_value(child(declarator, fields_.value)) : declared);
            });
        } else if (std::strcmp(type, "formal_parameters") == 0 || std::strcmp(type, "inferred_parameters") == 0) {
            for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
                TSNode parameter = named_child(node, i);
                TSNode name = child(parameter, fields_.name);
                if (ts_node_is_null(name) && type_is(parameter, "spread_parameter")) {
                    for (std::uint32_t j = 0, m = named_count(parameter); j < m; ++j)
                        if (type_is(named_child(parameter, j), "variable_declarator"))
                            name = child(named_child(parameter, j), fields_.name);
                }
                bind_local(role(parameter) == NavigationRole::identifier ? parameter : name, type_name_of(child(parameter, fields_.type)));
            }
        } else {
            bind_local(child(node, fields_.name), type_name_of(child(node, fields_.type)));  // catch, enhanced for, resource
        }
        return;
    }
}

// Every name a pattern binds, leaving out its types, default values and the members it writes.
void Extraction::bind_pattern(TSNode pattern, int depth) {
    // Patterns nest as deep as a file likes ([[[[x]]]]); past this the rest binds nothing.
    if (ts_node_is_null(pattern) || depth > max_pattern_depth) return;
    NavigationRole kind = role(pattern);
    const char* type = ts_node_type(pattern);
    if (kind == NavigationRole::identifier || std::strcmp(type, "shorthand_property_identifier_pattern") == 0 ||
        std::strcmp(type, "shorthand_field_identifier") == 0) {
        std::string_view name = text(pattern);
        // Rust patterns name enum variants and constants too: those start with a capital.
        if (language_ == Language::rust && !name.empty() && name[0] >= 'A' && name[0] <= 'Z') return;
        bind_local(pattern);
        return;
    }
    if (kind == NavigationRole::member_access || kind == NavigationRole::scoped_name || kind == NavigationRole::call ||
        std::strcmp(type, "subscript") == 0 || std::strcmp(type, "subscript_expression") == 0 ||
        std::strcmp(type, "index_expression") == 0)
        return;
    if (language_ == Language::c || language_ == Language::cpp) {
        bind_local(declarator_name(pattern));
        return;
    }
    if (std::strcmp(type, "typed_parameter") == 0) {  // Python's x: T
        TSNode name = named_child(pattern, 0);
        if (role(name) == NavigationRole::identifier) {
            bind_local(name, type_name_of(child(pattern, fields_.type)));
            return;
        }
    }
    if (std::strcmp(type, "pair_pattern") == 0) {
        bind_pattern(child(pattern, fields_.value), depth + 1);
        return;
    }
    if (std::strcmp(type, "assignment_pattern") == 0 || std::strcmp(type, "object_assignment_pattern") == 0) {
        bind_pattern(child(pattern, fields_.left), depth + 1);
        return;
    }
    if (std::strcmp(type, "default_parameter") == 0 || std::strcmp(type, "typed_default_parameter") == 0 ||
        std::strcmp(type, "variable_declarator") == 0) {
        bind_pattern(child(pattern, fields_.name), depth + 1);
        return;
    }
    if (std::strcmp(type, "field_pattern") == 0) {
        TSNode inner = child(pattern, fields_.pattern);
        bind_pattern(ts_node_is_null(inner) ? child(pattern, fields_.name) : inner, depth + 1);
        return;
    }
    TSTreeCursor cursor = ts_tree_cursor_new(pattern);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSFieldId field = ts_tree_cursor_current_field_id(&cursor);
            if (field && (field == fields_.type || field == fields_.value || field == fields_.default_value ||
                          field == fields_.right || field == fields_.body || field == fields_.return_type ||
                          field == fields_.condition || field == fields_.size || field == fields_.index))
                continue;
            TSNode item = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(item) && role(item) != NavigationRole::type_context) bind_pattern(item, depth + 1);
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

void Extraction::note_globals(TSNode statement) {
    for (std::uint32_t i = 0, n = named_count(statement); i < n; ++i) {
        TSNode name = named_child(statement, i);
        if (role(name) == NavigationRole::identifier) globals_.push_back(text(name));
    }
}

}  // namespace mcpkit::analyze::extraction
