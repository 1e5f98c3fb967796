#pragma once
// Inside the extractor (not a public header): one walk over a syntax tree filling a FileSymbols.
// SymbolExtractor.cpp walks and records uses of names; SymbolDefinitions.cpp reads definitions
// (names, kinds, containers, signatures, documentation, supertypes); SymbolBindings.cpp reads
// imports and the names a statement binds locally.

#include "analyze/navigation/NavigationGrammar.hpp"
#include "analyze/navigation/Symbols.hpp"
#include "analyze/syntax/SyntaxTree.hpp"

#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace mcpkit::analyze::extraction {

// tree-sitter's accessors take no null node: these answer nothing for one.
inline std::uint32_t named_count(TSNode node) { return ts_node_is_null(node) ? 0 : ts_node_named_child_count(node); }
inline TSNode named_child(TSNode node, std::uint32_t index) {
    return ts_node_is_null(node) ? TSNode{} : ts_node_named_child(node, index);
}
/// Whether the node is there and of this type.
inline bool type_is(TSNode node, const char* type) {
    return !ts_node_is_null(node) && std::strcmp(ts_node_type(node), type) == 0;
}

struct Frame {
    TSNode node{};
    NavigationRole role = NavigationRole::none;
    TSFieldId field = 0;       ///< this node's field in its parent
    bool callee = false;       ///< what a call calls
    bool writes = false;       ///< written: the left of an assignment, an operand of ++
    bool in_type = false;      ///< inside a type
    bool exporting = false;    ///< an export statement: what it wraps is exported
    bool opened_definition = false;
    bool opened_scope = false;
    bool opened_container = false;
    bool descend = true;
};

struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
};

class Extraction {
public:
    Extraction(const SyntaxTree& tree, FileSymbols& out);
    void run();

    // Shared helpers (SymbolExtractor.cpp).
    std::string_view text(TSNode node) const { return ts_node_is_null(node) ? std::string_view() : tree_.text(node); }
    TSNode child(TSNode node, TSFieldId field) const {
        return field && !ts_node_is_null(node) ? ts_node_child_by_field_id(node, field) : TSNode{};
    }
    NavigationRole role(TSNode node) const {
        return ts_node_is_null(node) ? NavigationRole::none : grammar_[ts_node_symbol(node)];
    }
    /// Calls visit(child) for every child in `field` (fields such as Go's names repeat).
    template <class Visit>
    void each_in_field(TSNode node, TSFieldId field, Visit&& visit) const {
        if (!field || ts_node_is_null(node)) return;
        TSTreeCursor cursor = ts_tree_cursor_new(node);
        if (ts_tree_cursor_goto_first_child(&cursor)) {
            do {
                if (ts_tree_cursor_current_field_id(&cursor) == field) visit(ts_tree_cursor_current_node(&cursor));
            } while (ts_tree_cursor_goto_next_sibling(&cursor));
        }
        ts_tree_cursor_delete(&cursor);
    }
    bool is(TSNode node, const char* type) const;
    /// C and C++ keywords, which a recovering parse may leave where a name should be.
    bool is_keyword(std::string_view name) const;
    StringId intern(std::string_view text);
    /// The name node is a definition's or a binding's: the walk must not count it as a use.
    void skip_name(TSNode name);
    /// Binds a local name in the innermost function (a no-op outside functions) and skips it.
    /// `type`, when the declaration states it: `x.f` then names f of that type.
    void bind_local(TSNode name, std::string_view type = {});
    /// The name a declared type comes down to (`Server` for `*http.Server`), else empty.
    std::string_view type_name_of(TSNode type) const;
    /// The type an initial value makes plain: `T{}`, `&T{}`, `new T()`, `T(…)` with a capitalised T,
    /// `T::new(…)`; else empty.
    std::string_view type_of_value(TSNode value) const;
    bool in_function() const { return !scope_marks_.empty(); }
    /// Qualifier text worth keeping: a simple name or dotted path, else empty.
    std::string_view simple_text(TSNode node) const;
    /// What `object.name` is reached through: the object's text, or a typed local's type.
    std::string_view qualifier_of(TSNode object) const;

    // Definitions (SymbolDefinitions.cpp). Each returns whether the walk descends into the node.
    void open_function(Frame& frame);
    void open_type(Frame& frame);
    void open_container(Frame& frame);
    void define_value(Frame& frame);
    void define_field(Frame& frame);
    void define_enum_member(Frame& frame);
    void define_macro(Frame& frame);
    void define_type_definition(Frame& frame);
    void define_assignment(Frame& frame);  ///< Python module-level variables and class attributes; JS `x.f = function`
    void define_property(Frame& frame);    ///< JavaScript `{ name: function () {} }`
    void open_definition(Frame& frame, int index, std::string_view name, bool is_type, bool exported);
    SymbolKind type_kind(TSNode node) const;
    bool is_exported(TSNode definition, std::string_view name, SymbolKind kind) const;
    TSNode declarator_name(TSNode declarator) const;
    bool declares_function(TSNode declarator) const;
    bool has_child_of_type(TSNode node, const char* type, std::string_view text_contains = {}) const;
    void note_comment(TSNode comment);
    void note_prefix(TSNode prefix);
    void read_package(TSNode node);

    // Supertypes (SymbolSupertypes.cpp).
    struct BaseType {
        TSNode name{};
        std::string_view qualifier;
    };
    /// The name a type expression comes down to: `Base` in `pkg.Base[T]`, `ns::Base<T>`, `*Base`.
    BaseType base_type(TSNode type) const;
    void read_supertypes(TSNode definition, int index, std::string_view name);
    void add_relation(int index, std::string_view subject, TSNode target, std::string_view qualifier, RelationKind kind);

    // Bindings and imports (SymbolBindings.cpp).
    void bind_statement(Frame& frame);
    static constexpr int max_pattern_depth = 64;
    void bind_pattern(TSNode pattern, int depth = 0);
    void read_import(TSNode node);
    void read_rust_use(TSNode tree, const std::string& prefix, int depth = 0);
    /// `module_alias`: the alias names a module (`import os`), so its uses are not references.
    void add_import(std::string_view alias, std::string_view module, std::string_view member, TSNode name_node,
                    bool module_alias);
    void note_globals(TSNode statement);

    const SyntaxTree& tree_;
    const NavigationGrammar& grammar_;
    const NavigationFields& fields_;
    Language language_;
    FileSymbols& out_;
    bool header_ = false;  ///< a C or C++ header: its types are for other files

    std::vector<Frame> frames_;
    std::unordered_map<std::string, StringId, StringHash, std::equal_to<>> string_ids_;

    // Definitions open around the walk's position, and the container names new ones get.
    std::vector<std::int32_t> definitions_open_;
    struct Container {
        std::string name;
        bool is_type = false;
        bool exported = false;
        std::int32_t definition = -1;
        bool trait_impl = false;  ///< Rust `impl Trait for T`: its methods are the trait's
    };
    std::vector<Container> containers_;

    // Locals of the enclosing functions: counts by name, and what each scope added.
    struct Local {
        std::uint32_t count = 0;
        std::string_view type;
    };
    std::unordered_map<std::string_view, Local> locals_;
    std::vector<std::string_view> bound_;
    std::vector<std::size_t> scope_marks_;
    std::vector<std::string_view> globals_;  ///< Python global/nonlocal names of the current function

    // Name nodes (by start byte) the walk must not count as uses, sorted; consumed in order.
    std::vector<std::uint32_t> skip_;
    std::size_t skip_head_ = 0;

    /// Names of imported modules (`os`, `http`, `np`): their uses are not references to a definition.
    std::unordered_set<std::string_view> module_aliases_;

    // The last run of adjacent comments: a definition starting on the next row gets its first line.
    std::int64_t comment_end_row_ = -2;
    TSNode comment_block_{};

    std::int32_t enclosing() const { return definitions_open_.empty() ? -1 : definitions_open_.back(); }
    int define(TSNode name_node, std::string_view name, SymbolKind kind, TSNode definition, bool exported,
               std::string_view container);
    std::string_view current_container() const { return containers_.empty() ? std::string_view() : containers_.back().name; }

private:
    void walk();
    void enter(Frame& frame);
    void leave(Frame& frame);
    void use_name(Frame& frame);
    bool consume_skip(std::uint32_t byte);
    bool is_builtin(std::string_view name) const;
};

}  // namespace mcpkit::analyze::extraction
