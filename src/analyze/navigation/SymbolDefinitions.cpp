// Definitions: what a definition node is called, what kind of thing it is, what contains it, its
// signature and documentation, whether other files may use it, and the supertypes it names.

#include "analyze/navigation/SymbolExtraction.hpp"

#include <cstring>

namespace mcpkit::analyze::extraction {

namespace {


bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

/// The declaration up to its body, on one line, at most 200 bytes (cut between characters).
std::string one_line(std::string_view text) {
    std::string line;
    line.reserve(std::min<std::size_t>(text.size(), 200));
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = !line.empty();
            continue;
        }
        if (space) line += ' ';
        space = false;
        line += c;
        if (line.size() >= 200) break;
    }
    while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80) line.pop_back();
    if (!line.empty() && static_cast<unsigned char>(line.back()) >= 0xC0) line.pop_back();
    while (!line.empty() && (line.back() == '{' || line.back() == ':' || line.back() == ' ')) line.pop_back();
    return line;
}

/// The first line of a comment's text, without its markers.
std::string comment_first_line(std::string_view text) {
    while (!text.empty()) {
        std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        std::size_t begin = line.find_first_not_of(" \t/*#!-");
        line = begin == std::string_view::npos ? std::string_view() : line.substr(begin);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '/' || line.back() == '*'))
            line.remove_suffix(1);
        if (!line.empty()) return one_line(line.substr(0, 160));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return {};
}

std::string_view strip_template_arguments(std::string_view text) {
    if (auto angle = text.find('<'); angle != std::string_view::npos) text = text.substr(0, angle);
    return text;
}

}  // namespace

int Extraction::define(TSNode name_node, std::string_view name, SymbolKind kind, TSNode definition, bool exported,
                       std::string_view container) {
    Definition symbol;
    symbol.name = intern(name);
    symbol.container = intern(container);
    symbol.kind = kind;
    symbol.exported = exported;
    TSPoint point = ts_node_start_point(name_node);
    symbol.line = point.row + 1;
    symbol.column = point.column + 1;
    TSPoint end = ts_node_end_point(definition);
    symbol.end_line = end.row + (end.column == 0 && end.row > 0 ? 0 : 1);
    symbol.parent = enclosing();
    // The signature: up to the body, else up to a brace, else all of it.
    std::uint32_t start = ts_node_start_byte(definition);
    std::uint32_t stop = ts_node_end_byte(definition);
    if (TSNode body = child(definition, fields_.body); !ts_node_is_null(body)) stop = ts_node_start_byte(body);
    std::string_view whole = tree_.source().substr(start, stop - start);
    if (auto brace = whole.find('{'); brace != std::string_view::npos && kind != SymbolKind::constant &&
                                      kind != SymbolKind::variable && kind != SymbolKind::macro)
        whole = whole.substr(0, brace);
    symbol.signature = intern(one_line(whole.substr(0, 400)));
    // Documentation: a docstring (Python), else the comments right above.
    std::string doc;
    if (language_ == Language::python) {
        TSNode body = child(definition, fields_.body);
        TSNode first = named_child(body, 0);
        if (type_is(first, "expression_statement") && type_is(named_child(first, 0), "string")) {
            std::string_view quoted = tree_.text(named_child(first, 0));
            std::size_t begin = quoted.find_first_not_of("rRbBuUfF\"'");
            if (begin != std::string_view::npos) doc = comment_first_line(quoted.substr(begin));
            while (!doc.empty() && (doc.back() == '"' || doc.back() == '\'')) doc.pop_back();
        }
    } else if (!ts_node_is_null(comment_block_) &&
               static_cast<std::int64_t>(ts_node_start_point(definition).row) == comment_end_row_ + 1) {
        // Only a comment that starts its line: not one trailing the code above.
        std::uint32_t comment_start = ts_node_start_byte(comment_block_);
        std::string_view before = tree_.source().substr(0, comment_start);
        std::size_t line_start = before.rfind('\n');
        std::string_view indent = before.substr(line_start == std::string_view::npos ? 0 : line_start + 1);
        if (indent.find_first_not_of(" \t") == std::string_view::npos) doc = comment_first_line(tree_.text(comment_block_));
        comment_block_ = TSNode{};  // one definition's: not also its first member's on the same line
    }
    symbol.doc = intern(doc);
    skip_name(name_node);
    out_.definitions.push_back(symbol);
    return static_cast<int>(out_.definitions.size() - 1);
}

void Extraction::note_comment(TSNode comment) {
    auto start = static_cast<std::int64_t>(ts_node_start_point(comment).row);
    if (ts_node_is_null(comment_block_) || start > comment_end_row_ + 1) comment_block_ = comment;
    comment_end_row_ = ts_node_end_point(comment).row;
    // A block comment ends on its own last row; a line comment's node ends at the next row's start.
    if (ts_node_end_point(comment).column == 0 && comment_end_row_ > 0) --comment_end_row_;
}

void Extraction::note_prefix(TSNode prefix) {
    if (static_cast<std::int64_t>(ts_node_start_point(prefix).row) == comment_end_row_ + 1)
        comment_end_row_ = ts_node_end_point(prefix).row;
}

void Extraction::read_package(TSNode node) {
    for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
        TSNode name = named_child(node, i);
        const char* type = ts_node_type(name);
        if (std::strcmp(type, "package_identifier") == 0 || std::strcmp(type, "scoped_identifier") == 0 ||
            std::strcmp(type, "identifier") == 0) {
            out_.package = std::string(tree_.text(name));
            return;
        }
    }
}


// The name node under a C or C++ declarator: through pointers, references, arrays, parentheses,
// initialisers and function declarators.
TSNode Extraction::declarator_name(TSNode declarator) const {
    for (int guard = 0; guard < 16 && !ts_node_is_null(declarator); ++guard) {
        NavigationRole kind = role(declarator);
        if (kind == NavigationRole::identifier || kind == NavigationRole::type_identifier ||
            kind == NavigationRole::member_name || kind == NavigationRole::scoped_name)
            return declarator;
        const char* type = ts_node_type(declarator);
        if (std::strcmp(type, "destructor_name") == 0 || std::strcmp(type, "operator_name") == 0) return declarator;
        TSNode inner = child(declarator, fields_.declarator);
        if (ts_node_is_null(inner)) inner = named_child(declarator, 0);
        declarator = inner;
    }
    return {};
}

bool Extraction::declares_function(TSNode declarator) const {
    for (int guard = 0; guard < 16 && !ts_node_is_null(declarator); ++guard) {
        if (type_is(declarator, "function_declarator")) {
            // int (*handler)(int): a pointer to a function is a variable.
            TSNode inner = child(declarator, fields_.declarator);
            if (type_is(inner, "parenthesized_declarator") && type_is(named_child(inner, 0), "pointer_declarator")) {
                TSNode pointed = child(named_child(inner, 0), fields_.declarator);
                return type_is(pointed, "function_declarator");  // (*f(void))(void): a function returning one
            }
            return true;
        }
        NavigationRole kind = role(declarator);
        if (kind == NavigationRole::identifier || kind == NavigationRole::member_name) return false;
        TSNode inner = child(declarator, fields_.declarator);
        if (ts_node_is_null(inner)) inner = named_child(declarator, 0);
        declarator = inner;
    }
    return false;
}

bool Extraction::has_child_of_type(TSNode node, const char* type, std::string_view text_contains) const {
    for (std::uint32_t i = 0, n = named_count(node); i < n; ++i) {
        TSNode item = named_child(node, i);
        if (std::strcmp(ts_node_type(item), type) != 0) continue;
        if (text_contains.empty() || tree_.text(item).find(text_contains) != std::string_view::npos) return true;
    }
    return false;
}

bool Extraction::is_exported(TSNode definition, std::string_view name, SymbolKind kind) const {
    const Container* container = containers_.empty() ? nullptr : &containers_.back();
    bool member = container && container->is_type;
    switch (language_) {
    case Language::go: return !name.empty() && is_upper(name[0]);
    case Language::python:
        if (name.size() > 4 && name.substr(0, 2) == "__" && name.substr(name.size() - 2) == "__") return true;
        return !name.empty() && name[0] != '_' && (!member || container->exported);
    case Language::javascript:
    case Language::typescript:
    case Language::tsx:
        for (std::size_t back = 2; back <= 4 && back <= frames_.size(); ++back)
            if (frames_[frames_.size() - back].exporting) return true;
        return member && container->exported && !name.empty() && name[0] != '#';
    case Language::rust:
        if (has_child_of_type(definition, "visibility_modifier")) return true;
        return member && (container->trait_impl ||
                          (container->exported && kind == SymbolKind::method && container->definition >= 0 &&
                           out_.definitions[static_cast<std::size_t>(container->definition)].kind == SymbolKind::trait));
    case Language::java:
        if (has_child_of_type(definition, "modifiers", "public") || has_child_of_type(definition, "modifiers", "protected"))
            return !member || container->exported;
        return member && container->exported && container->definition >= 0 &&
               out_.definitions[static_cast<std::size_t>(container->definition)].kind == SymbolKind::interface;
    case Language::c:
    case Language::cpp:
        if (has_child_of_type(definition, "storage_class_specifier", "static")) return member && container->exported;
        if (member) return container->exported;
        if (kind == SymbolKind::function || kind == SymbolKind::variable) return true;
        return header_;
    }
    return false;
}

void Extraction::open_definition(Frame& frame, int index, std::string_view name, bool is_type, bool exported) {
    definitions_open_.push_back(index);
    frame.opened_definition = true;
    std::string qualified(current_container());
    if (!qualified.empty()) qualified += '.';
    qualified += name;
    containers_.push_back({std::move(qualified), is_type, exported, index, false});
    frame.opened_container = true;
}

void Extraction::open_function(Frame& frame) {
    TSNode node = frame.node;
    TSNode name_node{};
    std::string container(current_container());
    bool qualified_name = false;
    if ((language_ == Language::c || language_ == Language::cpp) && type_is(node, "function_definition")) {
        TSNode declarator = child(node, fields_.declarator);
        for (int guard = 0; guard < 16 && !ts_node_is_null(declarator) && !type_is(declarator, "function_declarator"); ++guard) {
            TSNode inner = child(declarator, fields_.declarator);
            declarator = ts_node_is_null(inner) ? named_child(declarator, 0) : inner;
        }
        name_node = declarator_name(child(declarator, fields_.declarator));
        // `Class::method` and `ns::function` defined outside their scope.
        while (role(name_node) == NavigationRole::scoped_name && type_is(name_node, "qualified_identifier")) {
            TSNode scope_node = child(name_node, fields_.scope);
            if (type_is(scope_node, "template_type")) scope_node = child(scope_node, fields_.name);
            std::string_view scope = strip_template_arguments(simple_text(scope_node));
            if (!scope.empty()) {
                if (!container.empty()) container += '.';
                container += scope;
                qualified_name = true;
            }
            name_node = child(name_node, fields_.name);
        }
        if (type_is(name_node, "template_function")) name_node = child(name_node, fields_.name);
    } else {
        name_node = child(node, fields_.name);
        if (language_ == Language::go && type_is(node, "method_declaration")) {
            TSNode receiver = named_child(child(node, fields_.receiver), 0);
            std::string_view type = text(child(receiver, fields_.type));
            while (!type.empty() && type.front() == '*') type.remove_prefix(1);
            container = std::string(strip_template_arguments(type.substr(0, type.find('['))));
        }
    }
    scope_marks_.push_back(bound_.size());
    frame.opened_scope = true;
    if (ts_node_is_null(name_node)) return;
    std::string_view name = text(name_node);
    // tree-sitter's recovery from a macro it cannot expand can make `if` or `void` a function's name.
    if (is_keyword(name)) return;
    for (std::size_t colons; (colons = container.find("::")) != std::string::npos;) container.replace(colons, 2, ".");
    const char* type = ts_node_type(node);
    bool method = (!containers_.empty() && containers_.back().is_type && !qualified_name) ||
                  (language_ == Language::go && std::strcmp(type, "function_declaration") != 0) ||
                  std::strcmp(type, "method_definition") == 0 || std::strcmp(type, "method_declaration") == 0 ||
                  std::strcmp(type, "method_signature") == 0 || std::strcmp(type, "abstract_method_signature") == 0 ||
                  std::strcmp(type, "constructor_declaration") == 0 ||
                  std::strcmp(type, "compact_constructor_declaration") == 0 ||
                  std::strcmp(type, "annotation_type_element_declaration") == 0;
    SymbolKind kind = method ? SymbolKind::method : SymbolKind::function;
    bool exported = is_exported(node, name, kind);
    int index = define(name_node, name, kind, node, exported, container);
    definitions_open_.push_back(index);
    frame.opened_definition = true;
    containers_.push_back({container.empty() ? std::string(name) : container + "." + std::string(name), false, exported,
                           index, false});
    frame.opened_container = true;
}

SymbolKind Extraction::type_kind(TSNode node) const {
    std::string_view type = ts_node_type(node);
    if (type == "type_spec") {
        TSNode definition = child(node, fields_.type);
        if (type_is(definition, "struct_type")) return SymbolKind::struct_type;
        if (type_is(definition, "interface_type")) return SymbolKind::interface;
        return SymbolKind::type_alias;
    }
    if (type == "struct_specifier" || type == "struct_item") return SymbolKind::struct_type;
    if (type == "union_specifier" || type == "union_item") return SymbolKind::union_type;
    if (type == "enum_specifier" || type == "enum_item" || type == "enum_declaration") return SymbolKind::enum_type;
    if (type == "interface_declaration" || type == "annotation_type_declaration") return SymbolKind::interface;
    if (type == "trait_item") return SymbolKind::trait;
    if (type == "type_alias" || type == "type_item" || type == "type_alias_declaration" || type == "alias_declaration")
        return SymbolKind::type_alias;
    if (type == "namespace_definition" || type == "internal_module" || type == "module") return SymbolKind::namespace_;
    if (type == "mod_item") return SymbolKind::module;
    return SymbolKind::class_type;
}

void Extraction::open_type(Frame& frame) {
    TSNode node = frame.node;
    std::string_view type = ts_node_type(node);
    bool needs_body = type == "struct_specifier" || type == "union_specifier" || type == "enum_specifier" ||
                      type == "class_specifier" || type == "mod_item";
    if (needs_body && ts_node_is_null(child(node, fields_.body))) return;  // a use (`struct x *p`) or `mod x;`
    TSNode name_node = child(node, fields_.name);
    if (ts_node_is_null(name_node)) return;  // anonymous: its members belong to the enclosing type
    if (type_is(name_node, "template_type")) name_node = child(name_node, fields_.name);
    std::string_view name = text(name_node);
    if (type_is(name_node, "nested_namespace_specifier")) {
        // namespace a::b { … }: one definition, named for the whole path.
        std::string dotted(name);
        for (std::size_t colons; (colons = dotted.find("::")) != std::string::npos;) dotted.replace(colons, 2, ".");
        std::size_t last = dotted.rfind('.');
        std::string outer = last == std::string::npos ? std::string() : dotted.substr(0, last);
        std::string container(current_container());
        if (!outer.empty()) container = container.empty() ? outer : container + "." + outer;
        TSNode last_name = named_child(name_node, named_count(name_node) - 1);
        std::string_view own = text(last_name);
        int index = define(last_name, own, SymbolKind::namespace_, node, is_exported(node, own, SymbolKind::namespace_), container);
        definitions_open_.push_back(index);
        frame.opened_definition = true;
        containers_.push_back({container.empty() ? std::string(own) : container + "." + std::string(own), false, false, index, false});
        frame.opened_container = true;
        return;
    }
    if (role(name_node) == NavigationRole::scoped_name || type_is(name_node, "nested_identifier")) {
        std::size_t last = name.find_last_of(":.");
        name_node = named_child(name_node, named_count(name_node) - 1);
        name = last == std::string_view::npos ? name : name.substr(last + 1);
    }
    if (type_is(name_node, "string")) name = name.substr(1, name.size() >= 2 ? name.size() - 2 : 0);
    if (name.empty()) return;
    SymbolKind kind = type_kind(node);
    bool exported = is_exported(node, name, kind);
    int index = define(name_node, name, kind, node, exported, current_container());
    bool is_type = kind != SymbolKind::namespace_ && kind != SymbolKind::module && kind != SymbolKind::type_alias;
    open_definition(frame, index, name, is_type, exported);
    read_supertypes(node, index, name);
    // TypeScript enum members without a value are bare property names in the body.
    if (type == "enum_declaration" && language_ != Language::java) {
        TSNode body = child(node, fields_.body);
        for (std::uint32_t i = 0, n = named_count(body); i < n; ++i) {
            TSNode member = named_child(body, i);
            if (role(member) == NavigationRole::member_name)
                define(member, text(member), SymbolKind::enum_member, member, exported, containers_.back().name);
        }
    }
}

void Extraction::open_container(Frame& frame) {
    // Rust: `impl T` and `impl Trait for T` give their methods T as container.
    TSNode node = frame.node;
    auto [type_node, qualifier] = base_type(child(node, fields_.type));
    if (ts_node_is_null(type_node)) return;
    std::string_view name = text(type_node);
    TSNode trait = child(node, fields_.trait);
    if (!ts_node_is_null(trait)) {
        auto [trait_node, trait_qualifier] = base_type(trait);
        add_relation(-1, name, trait_node, trait_qualifier, RelationKind::implements);
    }
    containers_.push_back({std::string(name), true, true, -1, !ts_node_is_null(trait)});
    frame.opened_container = true;
}

}  // namespace mcpkit::analyze::extraction
