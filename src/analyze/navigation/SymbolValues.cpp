// Definitions that are not functions or types: file-level constants and variables, fields, enum
// members, macros, C typedefs, Python's module and class attributes. Inside a function the same
// statements bind locals instead.

#include "analyze/navigation/SymbolExtraction.hpp"

#include <cstring>

namespace mcpkit::analyze::extraction {

void Extraction::define_value(Frame& frame) {
    TSNode node = frame.node;
    if (in_function()) {
        bind_statement(frame);
        return;
    }
    std::string_view container = current_container();
    switch (language_) {
    case Language::c:
    case Language::cpp: {
        bool is_extern = has_child_of_type(node, "storage_class_specifier", "extern");
        each_in_field(node, fields_.declarator, [&](TSNode declarator) {
            if (type_is(declarator, "init_declarator")) declarator = child(declarator, fields_.declarator);
            TSNode name = declarator_name(declarator);
            if (ts_node_is_null(name)) return;
            // Prototypes and extern declarations announce what is defined elsewhere.
            if (is_extern || declares_function(declarator) || role(name) == NavigationRole::scoped_name) {
                skip_name(name);
                return;
            }
            define(name, text(name), SymbolKind::variable, node, is_exported(node, text(name), SymbolKind::variable), container);
        });
        return;
    }
    case Language::javascript:
    case Language::typescript:
    case Language::tsx: {
        bool constant = text(node).substr(0, 5) == "const";
        int declarators = 0, function_index = -1;
        std::string_view function_name;
        for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
            TSNode declarator = named_child(node, i);
            if (!type_is(declarator, "variable_declarator")) continue;
            ++declarators;
            TSNode name = child(declarator, fields_.name);
            if (role(name) != NavigationRole::identifier) {
                bind_pattern(name);  // destructuring at file level: names, not worth a definition each
                continue;
            }
            TSNode value = child(declarator, fields_.value);
            SymbolKind kind = constant ? SymbolKind::constant : SymbolKind::variable;
            if (role(value) == NavigationRole::closure) kind = SymbolKind::function;
            if (role(value) == NavigationRole::type) kind = SymbolKind::class_type;
            int index = define(name, text(name), kind, declarator, is_exported(node, text(name), kind), container);
            if (kind == SymbolKind::function) {
                function_index = index;
                function_name = text(name);
            }
        }
        // `const f = () => …`: the function's body belongs to f.
        if (declarators == 1 && function_index >= 0)
            open_definition(frame, function_index, function_name, false, out_.definitions.back().exported);
        return;
    }
    case Language::go: {
        SymbolKind kind = type_is(node, "const_spec") ? SymbolKind::constant : SymbolKind::variable;
        each_in_field(node, fields_.name, [&](TSNode name) {
            if (role(name) == NavigationRole::identifier)
                define(name, text(name), kind, node, is_exported(node, text(name), kind), container);
        });
        return;
    }
    case Language::rust: {
        TSNode name = child(node, fields_.name);
        SymbolKind kind = type_is(node, "const_item") ? SymbolKind::constant : SymbolKind::variable;
        if (!ts_node_is_null(name)) define(name, text(name), kind, node, is_exported(node, text(name), kind), container);
        return;
    }
    default: return;
    }
}

void Extraction::define_field(Frame& frame) {
    TSNode node = frame.node;
    std::string_view container = current_container();
    bool exported_container = !containers_.empty() && containers_.back().exported;
    auto add = [&](TSNode name, SymbolKind kind) {
        if (ts_node_is_null(name)) return;
        bool exported = language_ == Language::go ? is_exported(node, text(name), kind)
                        : language_ == Language::java || language_ == Language::rust
                            ? is_exported(node, text(name), kind)
                            : exported_container;
        define(name, text(name), kind, node, exported, container);
    };
    switch (language_) {
    case Language::c:
    case Language::cpp:
        each_in_field(node, fields_.declarator, [&](TSNode declarator) {
            TSNode name = declarator_name(declarator);
            if (declares_function(declarator)) {
                skip_name(name);  // a method declared here, defined elsewhere (or inline, as a function_definition)
                return;
            }
            add(name, SymbolKind::field);
        });
        return;
    case Language::go: {
        bool named = false;
        each_in_field(node, fields_.name, [&](TSNode name) {
            named = true;
            add(name, SymbolKind::field);
        });
        if (!named && !containers_.empty() && containers_.back().is_type && containers_.back().definition >= 0) {
            BaseType base = base_type(child(node, fields_.type));
            add_relation(containers_.back().definition, containers_.back().name, base.name, base.qualifier, RelationKind::embeds);
        }
        return;
    }
    case Language::java: {
        SymbolKind kind = type_is(node, "constant_declaration") ? SymbolKind::constant : SymbolKind::field;
        each_in_field(node, fields_.declarator, [&](TSNode declarator) { add(child(declarator, fields_.name), kind); });
        return;
    }
    case Language::javascript: add(child(node, fields_.property), SymbolKind::field); return;
    default: add(child(node, fields_.name), SymbolKind::field); return;
    }
}

void Extraction::define_enum_member(Frame& frame) {
    TSNode name = child(frame.node, fields_.name);
    if (ts_node_is_null(name)) return;
    bool exported = !containers_.empty() ? containers_.back().exported : header_;
    define(name, text(name), SymbolKind::enum_member, frame.node, exported, current_container());
}

void Extraction::define_macro(Frame& frame) {
    frame.descend = false;  // the body is unparsed text; the parameters are not uses
    TSNode name = child(frame.node, fields_.name);
    if (!ts_node_is_null(name)) define(name, text(name), SymbolKind::macro, frame.node, header_, {});
}

void Extraction::define_type_definition(Frame& frame) {
    each_in_field(frame.node, fields_.declarator, [&](TSNode declarator) {
        TSNode name = declarator_name(declarator);
        if (!ts_node_is_null(name))
            define(name, text(name), SymbolKind::type_alias, frame.node, header_ || !containers_.empty(), current_container());
    });
}

// Python: `X = …` at module level defines a variable, in a class body an attribute; in a function
// it binds locals. Other languages only write through assignments (see the walk's frames).
void Extraction::define_assignment(Frame& frame) {
    if (language_ == Language::javascript || language_ == Language::typescript || language_ == Language::tsx) {
        // `Name = function () {}`, `Type.prototype.name = function () {}`: what older JavaScript
        // defines functions and methods with.
        TSNode right = child(frame.node, fields_.right);
        if (role(right) != NavigationRole::closure || !type_is(frame.node, "assignment_expression")) return;
        TSNode left = child(frame.node, fields_.left);
        TSNode name = left;
        std::string container(current_container());
        SymbolKind kind = SymbolKind::function;
        if (role(left) == NavigationRole::member_access) {
            name = child(left, fields_.property);
            std::string_view object = simple_text(child(left, fields_.object));
            if (object.size() > 10 && object.substr(object.size() - 10) == ".prototype") object.remove_suffix(10);
            if (object == "prototype") object = {};
            if (!object.empty() && object != "this" && object != "module.exports" && object != "exports") {
                container = std::string(object);
                kind = SymbolKind::method;
            }
        }
        if (role(name) != NavigationRole::identifier && role(name) != NavigationRole::member_name) return;
        if (role(left) == NavigationRole::identifier && in_function() && locals_.count(text(left))) return;
        int index = define(name, text(name), kind, frame.node, false, container);
        open_definition(frame, index, text(name), false, false);
        return;
    }
    if (language_ != Language::python || !type_is(frame.node, "assignment")) return;
    TSNode left = child(frame.node, fields_.left);
    if (in_function()) {
        if (role(left) == NavigationRole::identifier)
            bind_local(left, type_of_value(child(frame.node, fields_.right)));
        else
            bind_pattern(left);
        return;
    }
    if (frames_.size() < 2 || !type_is(frames_[frames_.size() - 2].node, "expression_statement")) return;
    bool in_class = !containers_.empty() && containers_.back().is_type;
    auto add = [&](TSNode name) {
        if (role(name) != NavigationRole::identifier) return;
        SymbolKind kind = in_class ? SymbolKind::field : SymbolKind::variable;
        define(name, text(name), kind, frame.node, is_exported(frame.node, text(name), kind), current_container());
    };
    if (role(left) == NavigationRole::expression_list) {
        for (std::uint32_t i = 0, n = named_count(left); i < n; ++i) add(named_child(left, i));
    } else {
        add(left);
    }
}

void Extraction::define_property(Frame& frame) {
    TSNode value = child(frame.node, fields_.value);
    if (role(value) != NavigationRole::closure) return;
    TSNode key = child(frame.node, fields_.key);
    if (role(key) != NavigationRole::member_name && role(key) != NavigationRole::identifier) return;
    int index = define(key, text(key), SymbolKind::method, frame.node, false, current_container());
    open_definition(frame, index, text(key), false, false);
}

}  // namespace mcpkit::analyze::extraction
