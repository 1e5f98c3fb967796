// Supertypes a type definition names: base classes, implemented interfaces, supertraits, Go's
// embedded types. Only what the syntax says; Go's implicit interface satisfaction is worked out
// by the index from method sets (CodeIndex).

#include "analyze/navigation/SymbolExtraction.hpp"

#include <cstring>

namespace mcpkit::analyze::extraction {

Extraction::BaseType Extraction::base_type(TSNode type) const {
    for (int guard = 0; guard < 8 && !ts_node_is_null(type); ++guard) {
        NavigationRole kind = role(type);
        if (kind == NavigationRole::type_identifier || kind == NavigationRole::identifier) return {type, {}};
        const char* name = ts_node_type(type);
        if (!name) return {};
        if (kind == NavigationRole::scoped_name || kind == NavigationRole::member_access) {
            TSNode member = child(type, fields_.name);
            if (ts_node_is_null(member)) member = child(type, fields_.attribute);
            if (ts_node_is_null(member)) member = child(type, fields_.property);
            TSNode qualifier = child(type, fields_.scope);
            if (ts_node_is_null(qualifier)) qualifier = child(type, fields_.path);
            if (ts_node_is_null(qualifier)) qualifier = child(type, fields_.package);
            if (ts_node_is_null(qualifier)) qualifier = child(type, fields_.module);
            if (ts_node_is_null(qualifier)) qualifier = child(type, fields_.object);
            if (ts_node_is_null(member)) return {};
            if (role(member) == NavigationRole::scoped_name) {  // a::b::C: keep going down the name
                type = member;
                continue;
            }
            return {member, simple_text(qualifier)};
        }
        TSNode inner{};
        if (std::strcmp(name, "generic_type") == 0 || std::strcmp(name, "template_type") == 0) {
            inner = child(type, fields_.name);
            if (ts_node_is_null(inner)) inner = child(type, fields_.type);
        }
        if (ts_node_is_null(inner)) inner = child(type, fields_.type);
        if (ts_node_is_null(inner)) inner = named_child(type, 0);
        type = inner;
    }
    return {};
}

std::string_view Extraction::type_name_of(TSNode type) const {
    if (ts_node_is_null(type)) return {};
    std::string_view name = text(base_type(type).name);
    return name == "var" || name == "auto" ? std::string_view() : name;
}

std::string_view Extraction::type_of_value(TSNode value) const {
    for (int guard = 0; guard < 4 && !ts_node_is_null(value); ++guard) {
        const char* kind = ts_node_type(value);
        if (!kind) return {};
        if (std::strcmp(kind, "composite_literal") == 0 || std::strcmp(kind, "object_creation_expression") == 0 ||
            std::strcmp(kind, "struct_expression") == 0)
            return type_name_of(child(value, std::strcmp(kind, "struct_expression") == 0 ? fields_.name : fields_.type));
        if (role(value) == NavigationRole::constructor_call) {
            TSNode constructor = child(value, fields_.constructor);
            return type_name_of(ts_node_is_null(constructor) ? child(value, fields_.type) : constructor);
        }
        if (std::strcmp(kind, "unary_expression") == 0) {  // Go's &T{}
            value = child(value, fields_.operand);
            continue;
        }
        if (role(value) == NavigationRole::call) {
            TSNode function = child(value, fields_.function);
            // Python's Class(…) and Rust's Type::new(…): a capitalised name is a type by convention.
            if (language_ == Language::rust && role(function) == NavigationRole::scoped_name) function = child(function, fields_.path);
            if (language_ != Language::python && language_ != Language::rust) return {};
            std::string_view name = text(function);
            return !name.empty() && name[0] >= 'A' && name[0] <= 'Z' && role(function) != NavigationRole::member_access
                       ? name
                       : std::string_view();
        }
        return {};
    }
    return {};
}

void Extraction::add_relation(int index, std::string_view subject, TSNode target, std::string_view qualifier,
                              RelationKind kind) {
    if (ts_node_is_null(target)) return;
    Relation relation;
    relation.type = index;
    relation.subject = intern(subject);
    relation.target = intern(text(target));
    relation.qualifier = intern(qualifier);
    relation.kind = kind;
    TSPoint point = ts_node_start_point(target);
    relation.line = point.row + 1;
    relation.column = point.column + 1;
    out_.relations.push_back(relation);
}

void Extraction::read_supertypes(TSNode definition, int index, std::string_view name) {
    auto each_named = [&](TSNode parent, auto&& visit) {
        for (std::uint32_t i = 0, n = named_count(parent); i < n; ++i) visit(named_child(parent, i));
    };
    auto relate = [&](TSNode type, RelationKind kind) {
        BaseType base = base_type(type);
        add_relation(index, name, base.name, base.qualifier, kind);
    };
    switch (language_) {
    case Language::python:
        each_named(child(definition, fields_.superclasses), [&](TSNode base) {
            if (!type_is(base, "keyword_argument")) relate(base, RelationKind::extends);
        });
        return;
    case Language::java:
        each_named(child(definition, fields_.superclass), [&](TSNode type) { relate(type, RelationKind::extends); });
        each_named(child(definition, fields_.interfaces), [&](TSNode list) {
            each_named(list, [&](TSNode type) { relate(type, RelationKind::implements); });
        });
        each_named(definition, [&](TSNode item) {
            if (type_is(item, "extends_interfaces"))
                each_named(item, [&](TSNode list) { each_named(list, [&](TSNode type) { relate(type, RelationKind::extends); }); });
        });
        return;
    case Language::javascript:
    case Language::typescript:
    case Language::tsx:
        each_named(definition, [&](TSNode item) {
            if (type_is(item, "class_heritage")) {
                each_named(item, [&](TSNode clause) {
                    if (type_is(clause, "extends_clause")) {
                        each_named(clause, [&](TSNode type) {
                            if (!type_is(type, "type_arguments")) relate(type, RelationKind::extends);
                        });
                    } else if (type_is(clause, "implements_clause")) {
                        each_named(clause, [&](TSNode type) { relate(type, RelationKind::implements); });
                    } else {
                        relate(clause, RelationKind::extends);  // JavaScript: `extends expression`
                    }
                });
            } else if (type_is(item, "extends_type_clause")) {
                each_named(item, [&](TSNode type) { relate(type, RelationKind::extends); });
            }
        });
        return;
    case Language::cpp:
        each_named(definition, [&](TSNode item) {
            if (type_is(item, "base_class_clause"))
                each_named(item, [&](TSNode base) {
                    if (!type_is(base, "access_specifier") && !type_is(base, "virtual")) relate(base, RelationKind::extends);
                });
        });
        return;
    case Language::go: {
        TSNode type = child(definition, fields_.type);
        if (type_is(type, "struct_type")) {
            // Embedded fields (no name) are read by define_field.
        } else if (type_is(type, "interface_type")) {
            each_named(type, [&](TSNode element) {
                if (type_is(element, "type_elem")) each_named(element, [&](TSNode embedded) { relate(embedded, RelationKind::embeds); });
            });
        }
        return;
    }
    case Language::rust:
        each_named(child(definition, fields_.bounds), [&](TSNode bound) { relate(bound, RelationKind::extends); });
        return;
    case Language::c: return;
    }
}

}  // namespace mcpkit::analyze::extraction
