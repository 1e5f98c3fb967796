#pragma once
// What each grammar's node types mean to the navigation index: one role per node type, looked up
// by symbol id, and the field ids the extractor asks for, resolved once per language. Like
// syntax/NodeRoles, but for names rather than for metrics: where they are defined, bound locally,
// used, called, imported.

#include "analyze/syntax/Language.hpp"

#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace mcpkit::analyze {

enum class NavigationRole : std::uint8_t {
    none,
    // Names in use.
    identifier,          ///< a value name: a variable, a function, a package
    type_identifier,     ///< a name in a type position
    member_name,         ///< the name after a dot or an arrow (field_identifier, property_identifier)
    // Definitions; the extractor reads their names (SymbolDefinitions.cpp).
    function,            ///< a named function or method, or a declared one (signatures, method specs)
    type,                ///< class, struct, union, enum, interface, trait, type alias, namespace, module
    value,               ///< a constant or variable declaration (file-level: a definition; else a local)
    field,               ///< a field or property declaration in a type body
    enum_member,
    macro,
    type_definition,     ///< C's typedef
    container,           ///< a Rust impl block: gives its methods their type, defines nothing
    closure,             ///< lambdas, arrow functions, func literals: a scope for locals, not a definition
    // Where a name is reached through something, or used in a particular way.
    call,                ///< the function field names what is called
    constructor_call,    ///< `new T(...)`: T is called
    member_access,       ///< a.b: b is a member of a
    scoped_name,         ///< a::b, a.b in a type: b inside a
    assignment,          ///< its left field is written
    update,              ///< ++ and --: the operand is written
    expression_list,     ///< Go's a, b = …: passes writing on
    import,              ///< an import statement: bindings and import references, not walked further
    local_binding,       ///< declares locals (let, :=, local variable declarations, for and catch variables)
    global_statement,    ///< Python's global and nonlocal: those names are not locals
    type_context,        ///< a subtree that is a type (Python's `type`, annotations): names in it are type uses
    comment,
    export_statement,    ///< JavaScript/TypeScript export: what it wraps is exported
    package,             ///< Go's package clause, Java's package declaration
    transparent_prefix,  ///< Rust attributes, Python decorators: a doc comment above them still belongs to what follows
    property_pair,       ///< `key: value` in an object literal: a method when the value is a function
    opaque,              ///< a literal without names inside (strings without interpolation, numbers): not walked
    error
};

struct NavigationFields {
    TSFieldId name = 0, declarator = 0, type = 0, value = 0, left = 0, right = 0, body = 0, function = 0,
              arguments = 0, object = 0, operand = 0, field = 0, property = 0, attribute = 0, scope = 0, path = 0,
              parameters = 0, receiver = 0, pattern = 0, trait = 0, superclass = 0, interfaces = 0, argument = 0,
              alias = 0, module_name = 0, source = 0, constructor = 0, macro = 0, key = 0, default_value = 0,
              return_type = 0, result = 0, type_parameters = 0, bounds = 0, label = 0, condition = 0, index = 0,
              size = 0, initializer = 0, update = 0, consequence = 0, alternative = 0, parameter = 0, package = 0, module = 0,
              list = 0, members = 0, superclasses = 0;
};

class NavigationGrammar {
public:
    static const NavigationGrammar& of(Language language);
    NavigationRole operator[](TSSymbol symbol) const {
        return symbol < roles_.size() ? roles_[symbol] : NavigationRole::none;
    }
    const NavigationFields& fields() const { return fields_; }
    Language language() const { return language_; }
    /// Every node type and field name the tables use, for the test that checks the grammar has them.
    static std::vector<std::string_view> names_used(Language language);
    static std::vector<std::string_view> fields_used();

private:
    explicit NavigationGrammar(Language language);
    Language language_;
    std::vector<NavigationRole> roles_;
    NavigationFields fields_;
};

}  // namespace mcpkit::analyze
