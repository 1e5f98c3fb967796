#include "analyze/syntax/Naming.hpp"

#include <cstring>

namespace mcpkit::analyze {

namespace {

bool is(TSNode node, const char* type) { return !ts_node_is_null(node) && std::strcmp(ts_node_type(node), type) == 0; }

TSNode field(TSNode node, const char* name) {
    return ts_node_child_by_field_name(node, name, static_cast<std::uint32_t>(std::strlen(name)));
}

std::string text_of(const SyntaxTree& tree, TSNode node) {
    return ts_node_is_null(node) ? std::string() : std::string(tree.text(node));
}

std::string_view strip_quotes(std::string_view text) {
    while (!text.empty() && (text.front() == '"' || text.front() == '\'' || text.front() == '`' || text.front() == '<'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == '"' || text.back() == '\'' || text.back() == '`' || text.back() == '>'))
        text.remove_suffix(1);
    return text;
}

int line_of(TSNode node) { return static_cast<int>(ts_node_start_point(node).row) + 1; }

// C and C++: the declarator chain (pointers, references, parentheses) down to the function's name.
std::string c_declarator_name(const SyntaxTree& tree, TSNode declarator) {
    for (int guard = 0; guard < 16 && !ts_node_is_null(declarator); ++guard) {
        if (is(declarator, "function_declarator")) {
            TSNode name = field(declarator, "declarator");
            // A function returning a function pointer nests another function_declarator.
            if (is(name, "function_declarator") || is(name, "pointer_declarator") || is(name, "parenthesized_declarator")) {
                declarator = name;
                continue;
            }
            return text_of(tree, name);
        }
        TSNode inner = field(declarator, "declarator");
        if (ts_node_is_null(inner)) inner = ts_node_named_child(declarator, 0);
        declarator = inner;
    }
    return {};
}

// A closure passed to a call (callbacks, tests, handlers) is named after the call, with the call's
// first argument when that is a string: `test("parses empty input") callback`, `items.map callback`.
// A report full of `<anonymous>` says nothing about which callback is the complex one.
std::string callback_name(const SyntaxTree& tree, TSNode arguments, TSNode call) {
    if (ts_node_is_null(call)) return "<anonymous>";
    TSNode callee = field(call, "function");
    if (ts_node_is_null(callee)) callee = field(call, "name");  // Java's method_invocation
    std::string_view name = ts_node_is_null(callee) ? std::string_view() : tree.text(callee);
    // A long or multi-line callee (a chained builder) is known by its last member.
    if (name.size() > 60 || name.find('\n') != std::string_view::npos) name = name.substr(name.find_last_of(".\n") + 1);
    if (name.empty()) return "<anonymous>";
    std::string result(name);
    TSNode first = ts_node_named_child(arguments, 0);
    if (is(first, "string") || is(first, "string_literal") || is(first, "interpreted_string_literal") ||
        is(first, "template_string")) {
        std::string_view label = strip_quotes(tree.text(first));
        if (label.size() <= 80 && label.find_first_of("\n$") == std::string_view::npos) {
            result += "(\"";
            result += label;
            result += "\")";
        }
    }
    return result + " callback";
}

}  // namespace

std::string function_name(const SyntaxTree& tree, TSNode function, TSNode parent, TSNode grandparent) {
    const char* type = ts_node_type(function);
    if (std::strcmp(type, "function_definition") == 0 && tree.language() != Language::python) {
        std::string name = c_declarator_name(tree, field(function, "declarator"));
        return name.empty() ? "<anonymous>" : name;
    }
    TSNode name = field(function, "name");
    if (!ts_node_is_null(name)) return text_of(tree, name);
    // A closure: name it after what it is assigned to.
    if (is(parent, "variable_declarator") || is(parent, "public_field_definition") || is(parent, "field_definition")) {
        TSNode target = field(parent, "name");
        if (ts_node_is_null(target)) target = field(parent, "property");
        if (!ts_node_is_null(target)) return text_of(tree, target);
    }
    if (is(parent, "pair")) return std::string(strip_quotes(tree.text(field(parent, "key"))));
    if (is(parent, "assignment_expression")) return text_of(tree, field(parent, "left"));
    if (is(parent, "let_declaration") || is(parent, "short_var_declaration"))
        return text_of(tree, field(parent, is(parent, "let_declaration") ? "pattern" : "left"));
    if (is(parent, "arguments") || is(parent, "argument_list")) return callback_name(tree, parent, grandparent);
    return "<anonymous>";
}

std::string receiver_type(const SyntaxTree& tree, TSNode function) {
    if (!is(function, "method_declaration") || tree.language() != Language::go) return {};
    TSNode receiver = field(function, "receiver");
    TSNode parameter = ts_node_named_child(receiver, 0);
    std::string type = text_of(tree, field(parameter, "type"));
    while (!type.empty() && type.front() == '*') type.erase(0, 1);
    if (auto bracket = type.find('['); bracket != std::string::npos) type.resize(bracket);
    return type;
}

std::string type_name(const SyntaxTree& tree, TSNode type) {
    const char* kind = ts_node_type(type);
    if (std::strcmp(kind, "impl_item") == 0) {
        // `impl Trait for T`: the methods belong to T.
        return text_of(tree, field(type, "type"));
    }
    if (std::strcmp(kind, "mod_item") == 0 && ts_node_is_null(field(type, "body"))) return {};  // `mod x;` is an import
    bool needs_body = std::strcmp(kind, "struct_specifier") == 0 || std::strcmp(kind, "union_specifier") == 0 ||
                      std::strcmp(kind, "enum_specifier") == 0 || std::strcmp(kind, "class_specifier") == 0;
    if (needs_body && ts_node_is_null(field(type, "body"))) return {};
    TSNode name = field(type, "name");
    if (ts_node_is_null(name)) return needs_body || std::strcmp(kind, "namespace_definition") == 0 ? "<anonymous>" : "";
    return text_of(tree, name);
}

std::string type_kind(const SyntaxTree& tree, TSNode type) {
    std::string_view kind = ts_node_type(type);
    if (kind == "type_spec") {
        TSNode definition = field(type, "type");
        if (is(definition, "struct_type")) return "struct";
        if (is(definition, "interface_type")) return "interface";
        return "type";
    }
    if (kind == "class_definition" || kind == "class_specifier" || kind == "class_declaration" || kind == "class" ||
        kind == "abstract_class_declaration")
        return "class";
    if (kind == "struct_specifier" || kind == "struct_item") return "struct";
    if (kind == "union_specifier" || kind == "union_item") return "union";
    if (kind == "enum_specifier" || kind == "enum_item" || kind == "enum_declaration") return "enum";
    if (kind == "interface_declaration" || kind == "annotation_type_declaration") return "interface";
    if (kind == "trait_item") return "trait";
    if (kind == "impl_item") return "impl";
    if (kind == "namespace_definition" || kind == "internal_module") return "namespace";
    if (kind == "mod_item") return "module";
    if (kind == "record_declaration") return "record";
    (void)tree;
    return "type";
}

void collect_imports(const SyntaxTree& tree, TSNode node, std::vector<Import>& imports) {
    std::string_view kind = ts_node_type(node);
    int line = line_of(node);
    switch (tree.language()) {
    case Language::python: {
        if (kind == "future_import_statement") {
            imports.push_back({"__future__", "import", line, false});
        } else if (kind == "import_statement") {
            for (std::uint32_t i = 0, n = ts_node_named_child_count(node); i < n; ++i) {
                TSNode child = ts_node_named_child(node, i);
                TSNode name = is(child, "aliased_import") ? field(child, "name") : child;
                if (is(name, "dotted_name")) imports.push_back({text_of(tree, name), "import", line, false});
            }
        } else if (kind == "import_from_statement") {
            TSNode module = field(node, "module_name");
            std::string target = text_of(tree, module);
            bool only_dots = !target.empty() && target.find_first_not_of('.') == std::string::npos;
            if (!only_dots) {
                imports.push_back({target, "import", line, false});
                // `from pkg import b` also runs pkg/b.py when b is a submodule: each name is a
                // possible module ("member"), a dependency only if the project has that file.
                for (std::uint32_t i = 0, n = ts_node_named_child_count(node); i < n; ++i) {
                    TSNode child = ts_node_named_child(node, i);
                    if (ts_node_eq(child, module)) continue;
                    TSNode name = is(child, "aliased_import") ? field(child, "name") : child;
                    if (is(name, "dotted_name")) imports.push_back({target + "." + text_of(tree, name), "member", line, false});
                }
            } else {
                // `from . import a, b`: each name is a module of the package.
                for (std::uint32_t i = 0, n = ts_node_named_child_count(node); i < n; ++i) {
                    TSNode child = ts_node_named_child(node, i);
                    if (ts_node_eq(child, module)) continue;
                    TSNode name = is(child, "aliased_import") ? field(child, "name") : child;
                    if (is(name, "dotted_name")) imports.push_back({target + text_of(tree, name), "import", line, false});
                }
            }
        }
        return;
    }
    case Language::c:
    case Language::cpp: {
        TSNode path = field(node, "path");
        if (ts_node_is_null(path)) return;
        bool system = is(path, "system_lib_string");
        imports.push_back({std::string(strip_quotes(tree.text(path))), "include", line, system});
        return;
    }
    case Language::javascript:
    case Language::typescript:
    case Language::tsx: {
        TSNode source = field(node, "source");
        if (!ts_node_is_null(source)) imports.push_back({std::string(strip_quotes(tree.text(source))), "import", line, false});
        return;
    }
    case Language::go: {
        TSNode path = field(node, "path");
        if (!ts_node_is_null(path)) imports.push_back({std::string(strip_quotes(tree.text(path))), "import", line, false});
        return;
    }
    case Language::rust: {
        if (kind == "use_declaration") {
            imports.push_back({text_of(tree, field(node, "argument")), "use", line, false});
        } else if (kind == "extern_crate_declaration") {
            imports.push_back({text_of(tree, field(node, "name")), "extern crate", line, false});
        } else if (kind == "mod_item" && ts_node_is_null(field(node, "body"))) {
            imports.push_back({text_of(tree, field(node, "name")), "mod", line, false});
        }
        return;
    }
    case Language::java: {
        std::string_view text = tree.text(node);
        auto begin = text.find("import");
        if (begin == std::string_view::npos) return;
        text.remove_prefix(begin + 6);
        if (auto semicolon = text.find(';'); semicolon != std::string_view::npos) text = text.substr(0, semicolon);
        std::string target;
        for (char c : text)
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') target += c;
        if (target.rfind("static", 0) == 0) target.erase(0, 6);
        imports.push_back({target, "import", line, false});
        return;
    }
    }
}

int count_parameters(TSNode parameter_list) {
    if (ts_node_is_null(parameter_list)) return 0;
    int count = 0;
    for (std::uint32_t i = 0, n = ts_node_named_child_count(parameter_list); i < n; ++i) {
        std::string_view type = ts_node_type(ts_node_named_child(parameter_list, i));
        if (type != "comment" && type != "line_comment" && type != "block_comment" && type != "positional_separator" &&
            type != "keyword_separator")
            ++count;
    }
    return count;
}

}  // namespace mcpkit::analyze
