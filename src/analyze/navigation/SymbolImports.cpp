// Imports: which local names an import statement binds to which module (and member), for the
// index to follow `alias.name` and imported names to their definitions. An imported member is
// also a reference of kind import at the place it is named.

#include "analyze/navigation/SymbolExtraction.hpp"

#include <cstring>

namespace mcpkit::analyze::extraction {

namespace {


std::string_view unquote(std::string_view text) {
    while (!text.empty() && (text.front() == '"' || text.front() == '\'' || text.front() == '`' || text.front() == '<'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == '"' || text.back() == '\'' || text.back() == '`' || text.back() == '>'))
        text.remove_suffix(1);
    return text;
}

/// The name a Go import path is used by: its last element, less a major-version suffix.
std::string_view go_package_name(std::string_view path) {
    std::string_view last = path.substr(path.rfind('/') + 1);
    if (last.size() >= 2 && last[0] == 'v' && last.find_first_not_of("0123456789", 1) == std::string_view::npos &&
        path.rfind('/') != std::string_view::npos) {
        std::string_view rest = path.substr(0, path.rfind('/'));
        last = rest.substr(rest.rfind('/') + 1);
    }
    if (auto dot = last.find(".v"); dot != std::string_view::npos) last = last.substr(0, dot);
    if (last.substr(0, 3) == "go-") last.remove_prefix(3);
    return last;
}

}  // namespace

void Extraction::add_import(std::string_view alias, std::string_view module, std::string_view member, TSNode name_node,
                            bool module_alias) {
    ImportBinding binding;
    binding.alias = intern(alias);
    binding.module = intern(module);
    binding.member = intern(member);
    binding.line = ts_node_start_point(name_node).row + 1;
    out_.imports.push_back(binding);
    if (module_alias && !alias.empty() && alias != "*" && alias != "_" && alias != ".") module_aliases_.insert(alias);
    if (!member.empty() && member != "*" && !ts_node_is_null(name_node)) {
        Reference reference;
        reference.name = intern(member);
        reference.qualifier = intern(module);
        reference.member = true;
        reference.kind = ReferenceKind::import;
        TSPoint point = ts_node_start_point(name_node);
        reference.line = point.row + 1;
        reference.column = point.column + 1;
        reference.enclosing = enclosing();
        out_.references.push_back(reference);
    }
}

void Extraction::read_rust_use(TSNode tree, const std::string& prefix, int depth) {
    if (ts_node_is_null(tree) || depth > max_pattern_depth) return;  // use a::{b::{c::{…}}}, as deep as a file likes
    const char* type = ts_node_type(tree);
    auto join = [&](std::string_view path) {
        return prefix.empty() ? std::string(path) : path.empty() ? prefix.substr(0, prefix.size() - 2) : prefix + std::string(path);
    };
    if (std::strcmp(type, "scoped_identifier") == 0) {
        TSNode name = child(tree, fields_.name);
        add_import(text(name), join(text(child(tree, fields_.path))), text(name), name, false);
    } else if (std::strcmp(type, "use_as_clause") == 0) {
        TSNode path = child(tree, fields_.path);
        TSNode alias = child(tree, fields_.alias);
        TSNode name = type_is(path, "scoped_identifier") ? child(path, fields_.name) : path;
        std::string module = type_is(path, "scoped_identifier") ? join(text(child(path, fields_.path))) : join({});
        add_import(text(alias), module, text(name), name, false);
    } else if (std::strcmp(type, "scoped_use_list") == 0) {
        std::string inner = join(text(child(tree, fields_.path)));
        if (!inner.empty()) inner += "::";
        TSNode list = child(tree, fields_.list);
        for (std::uint32_t i = 0, n = named_count(list); i < n; ++i) read_rust_use(named_child(list, i), inner, depth + 1);
    } else if (std::strcmp(type, "use_list") == 0) {
        for (std::uint32_t i = 0, n = named_count(tree); i < n; ++i) read_rust_use(named_child(tree, i), prefix, depth + 1);
    } else if (std::strcmp(type, "use_wildcard") == 0) {
        TSNode path = named_child(tree, 0);
        add_import("*", join(ts_node_is_null(path) ? std::string_view() : text(path)), {}, tree, false);
    } else if (std::strcmp(type, "identifier") == 0) {
        add_import(text(tree), join({}), text(tree), tree, false);
    }
}

void Extraction::read_import(TSNode node) {
    const char* type = ts_node_type(node);
    switch (language_) {
    case Language::python:
        if (std::strcmp(type, "import_statement") == 0) {
            for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
                TSNode item = named_child(node, i);
                if (type_is(item, "aliased_import")) {
                    add_import(text(child(item, fields_.alias)), text(child(item, fields_.name)), {}, item, true);
                } else if (type_is(item, "dotted_name")) {
                    std::string_view module = text(item);
                    add_import(module.substr(0, module.find('.')), module.substr(0, module.find('.')), {}, item, true);
                }
            }
        } else if (std::strcmp(type, "import_from_statement") == 0) {
            TSNode module_node = child(node, fields_.module_name);
            std::string_view module = text(module_node);
            for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
                TSNode item = named_child(node, i);
                if (ts_node_eq(item, module_node)) continue;
                if (type_is(item, "aliased_import")) {
                    TSNode name = child(item, fields_.name);
                    add_import(text(child(item, fields_.alias)), module, text(name), name, false);
                } else if (type_is(item, "dotted_name")) {
                    add_import(text(item), module, text(item), item, false);
                } else if (type_is(item, "wildcard_import")) {
                    add_import("*", module, {}, item, false);
                }
            }
        }
        return;
    case Language::go: {
        auto spec = [&](TSNode import_spec) {
            TSNode path = child(import_spec, fields_.path);
            TSNode name = child(import_spec, fields_.name);
            std::string_view module = unquote(text(path));
            std::string_view alias = ts_node_is_null(name) ? go_package_name(module) : text(name);
            add_import(alias, module, {}, import_spec, true);
        };
        for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
            TSNode item = named_child(node, i);
            if (type_is(item, "import_spec")) spec(item);
            if (type_is(item, "import_spec_list"))
                for (std::uint32_t j = 0, m = named_count(item); j < m; ++j)
                    if (type_is(named_child(item, j), "import_spec")) spec(named_child(item, j));
        }
        return;
    }
    case Language::javascript:
    case Language::typescript:
    case Language::tsx: {
        std::string_view module = unquote(text(child(node, fields_.source)));
        for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
            TSNode clause = named_child(node, i);
            if (!type_is(clause, "import_clause")) continue;
            for (std::uint32_t j = 0, m = named_count(clause); j < m; ++j) {
                TSNode item = named_child(clause, j);
                if (role(item) == NavigationRole::identifier) {
                    add_import(text(item), module, "default", {}, false);
                } else if (type_is(item, "namespace_import")) {
                    add_import(text(named_child(item, 0)), module, {}, item, true);
                } else if (type_is(item, "named_imports")) {
                    for (std::uint32_t k = 0, o = named_count(item); k < o; ++k) {
                        TSNode specifier = named_child(item, k);
                        if (!type_is(specifier, "import_specifier")) continue;
                        TSNode name = child(specifier, fields_.name);
                        TSNode alias = child(specifier, fields_.alias);
                        add_import(text(ts_node_is_null(alias) ? name : alias), module, text(name), name, false);
                    }
                }
            }
        }
        return;
    }
    case Language::java: {
        TSNode path{};
        bool wildcard = false;
        for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
            TSNode item = named_child(node, i);
            if (type_is(item, "scoped_identifier") || type_is(item, "identifier")) path = item;
            if (type_is(item, "asterisk")) wildcard = true;
        }
        if (ts_node_is_null(path)) return;
        if (wildcard) {
            add_import("*", text(path), {}, path, false);
        } else if (type_is(path, "scoped_identifier")) {
            TSNode name = child(path, fields_.name);
            add_import(text(name), text(child(path, fields_.scope)), text(name), name, false);
        }
        return;
    }
    case Language::rust:
        if (std::strcmp(type, "extern_crate_declaration") == 0) {
            TSNode name = child(node, fields_.name);
            TSNode alias = child(node, fields_.alias);
            add_import(text(ts_node_is_null(alias) ? name : alias), text(name), {}, name, true);
        } else {
            read_rust_use(child(node, fields_.argument), {});
        }
        return;
    case Language::c:
    case Language::cpp: {
        TSNode path = child(node, fields_.path);
        if (!ts_node_is_null(path)) add_import({}, unquote(text(path)), {}, path, false);
        return;
    }
    }
}

}  // namespace mcpkit::analyze::extraction
