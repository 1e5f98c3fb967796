#include "analyze/navigation/SymbolExtractor.hpp"

#include "analyze/navigation/SymbolExtraction.hpp"

#include <algorithm>
#include <cstring>

namespace mcpkit::analyze {

namespace extraction {

namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Names every Go or Python file may use without defining them: counting them as references would
// fill the index with uses nothing in the tree defines.
constexpr std::string_view go_predeclared[] = {
    "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64", "int", "int8",
    "int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "true",
    "false", "iota", "nil", "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make",
    "max", "min", "new", "panic", "print", "println", "real", "recover"};
constexpr std::string_view python_builtins[] = {
    "self", "cls", "print", "len", "str", "int", "float", "bool", "list", "dict", "set", "tuple", "bytes", "object",
    "type", "isinstance", "issubclass", "range", "enumerate", "zip", "map", "filter", "sorted", "reversed", "min",
    "max", "sum", "any", "all", "abs", "getattr", "setattr", "hasattr", "delattr", "super", "repr", "iter", "next",
    "open", "id", "hash", "callable", "vars", "dir", "format", "frozenset", "property", "staticmethod",
    "classmethod", "NotImplemented", "Ellipsis", "Exception", "ValueError", "TypeError", "KeyError", "IndexError",
    "AttributeError", "RuntimeError", "OSError", "StopIteration", "NotImplementedError", "ImportError"};

}  // namespace

Extraction::Extraction(const SyntaxTree& tree, FileSymbols& out)
    : tree_(tree),
      grammar_(NavigationGrammar::of(tree.language())),
      fields_(grammar_.fields()),
      language_(tree.language()),
      out_(out) {
    if (language_ == Language::c || language_ == Language::cpp) {
        std::string_view path = out_.path;
        header_ = ends_with(path, ".h") || ends_with(path, ".hh") || ends_with(path, ".hpp") || ends_with(path, ".hxx") ||
                  ends_with(path, ".h++");
    }
    string_ids_.emplace(std::string(), 0);
}

bool Extraction::is(TSNode node, const char* type) const { return type_is(node, type); }

StringId Extraction::intern(std::string_view text) {
    if (text.empty()) return 0;
    auto found = string_ids_.find(text);
    if (found != string_ids_.end()) return found->second;
    auto id = static_cast<StringId>(out_.strings.size());
    out_.strings.emplace_back(text);
    string_ids_.emplace(std::string(text), id);
    return id;
}

void Extraction::skip_name(TSNode name) {
    if (ts_node_is_null(name)) return;
    std::uint32_t byte = ts_node_start_byte(name);
    // Names arrive nearly in order: insert from the back.
    auto position = skip_.end();
    while (position != skip_.begin() + static_cast<std::ptrdiff_t>(skip_head_) && *(position - 1) > byte) --position;
    skip_.insert(position, byte);
}

bool Extraction::consume_skip(std::uint32_t byte) {
    while (skip_head_ < skip_.size() && skip_[skip_head_] < byte) ++skip_head_;
    if (skip_head_ < skip_.size() && skip_[skip_head_] == byte) {
        ++skip_head_;
        return true;
    }
    return false;
}

void Extraction::bind_local(TSNode name, std::string_view type) {
    if (ts_node_is_null(name)) return;
    std::string_view text = tree_.text(name);
    // Python's `global x`: assigning x writes the module's variable.
    if (!globals_.empty() && std::find(globals_.begin(), globals_.end(), text) != globals_.end()) return;
    skip_name(name);
    if (!in_function()) return;
    if (text.empty() || text == "_") return;
    Local& local = locals_[text];
    ++local.count;
    if (!type.empty()) local.type = type;
    bound_.push_back(text);
}

std::string_view Extraction::simple_text(TSNode node) const {
    if (ts_node_is_null(node)) return {};
    std::string_view text = tree_.text(node);
    if (text.empty() || text.size() > 80) return {};
    for (char c : text)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == ':' ||
              static_cast<unsigned char>(c) >= 0x80))
            return {};
    return text;
}

std::string_view Extraction::qualifier_of(TSNode object) const {
    std::string_view qualifier = simple_text(object);
    // A local whose declaration gave its type: the member is that type's.
    if (in_function() && role(object) == NavigationRole::identifier) {
        auto local = locals_.find(qualifier);
        if (local != locals_.end() && !local->second.type.empty()) return local->second.type;
    }
    return qualifier;
}

bool Extraction::is_keyword(std::string_view name) const {
    if (language_ != Language::c && language_ != Language::cpp) return false;
    static constexpr std::string_view keywords[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
        "float", "for", "goto", "if", "int", "long", "register", "return", "short", "signed", "sizeof", "static",
        "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while"};
    return std::find(std::begin(keywords), std::end(keywords), name) != std::end(keywords);
}

bool Extraction::is_builtin(std::string_view name) const {
    if (language_ == Language::go)
        return std::find(std::begin(go_predeclared), std::end(go_predeclared), name) != std::end(go_predeclared);
    if (language_ == Language::python)
        return std::find(std::begin(python_builtins), std::end(python_builtins), name) != std::end(python_builtins);
    return language_ == Language::rust && name == "Self";
}

void Extraction::run() { walk(); }

// Depth first with a cursor (no ts_node_parent, which searches from the root); frames carry what a
// node's ancestors say about it.
void Extraction::walk() {
    TSNode root = tree_.root();
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    frames_.reserve(64);
    frames_.push_back(Frame{root, grammar_[ts_node_symbol(root)]});
    enter(frames_.back());
    for (;;) {
        if (frames_.back().descend && ts_tree_cursor_goto_first_child(&cursor)) {
            // fall through to push the child
        } else {
            bool moved = false;
            while (!moved) {
                leave(frames_.back());
                frames_.pop_back();
                if (frames_.empty()) break;
                if (ts_tree_cursor_goto_next_sibling(&cursor)) {
                    moved = true;
                } else if (!ts_tree_cursor_goto_parent(&cursor)) {
                    break;
                }
            }
            if (!moved) break;
        }
        TSNode node = ts_tree_cursor_current_node(&cursor);
        const Frame& parent = frames_.back();
        Frame frame;
        frame.node = node;
        // Only these parents' fields matter (callee, written, member name); asking costs a search.
        switch (parent.role) {
        case NavigationRole::call:
        case NavigationRole::constructor_call:
        case NavigationRole::assignment:
        case NavigationRole::member_access:
        case NavigationRole::scoped_name: frame.field = ts_tree_cursor_current_field_id(&cursor); break;
        default: break;
        }
        frame.role = ts_node_is_named(node) ? grammar_[ts_node_symbol(node)] : NavigationRole::none;
        frame.in_type = parent.in_type || frame.role == NavigationRole::type_context;
        frame.callee = (parent.role == NavigationRole::call && frame.field &&
                        (frame.field == fields_.function || frame.field == fields_.macro)) ||
                       (parent.role == NavigationRole::constructor_call && frame.field &&
                        (frame.field == fields_.constructor || frame.field == fields_.type));
        frame.writes = (parent.role == NavigationRole::assignment && frame.field && frame.field == fields_.left) ||
                       parent.role == NavigationRole::update ||
                       (parent.role == NavigationRole::expression_list && parent.writes);
        if (!ts_node_is_named(node)) frame.descend = false;
        frames_.push_back(frame);
        enter(frames_.back());
    }
    ts_tree_cursor_delete(&cursor);
}

void Extraction::enter(Frame& frame) {
    switch (frame.role) {
    case NavigationRole::identifier:
    case NavigationRole::type_identifier:
    case NavigationRole::member_name:
        use_name(frame);
        frame.descend = false;
        return;
    case NavigationRole::function: open_function(frame); return;
    case NavigationRole::type: open_type(frame); return;
    case NavigationRole::container: open_container(frame); return;
    case NavigationRole::value: define_value(frame); return;
    case NavigationRole::field: define_field(frame); return;
    case NavigationRole::enum_member: define_enum_member(frame); return;
    case NavigationRole::macro: define_macro(frame); return;
    case NavigationRole::type_definition: define_type_definition(frame); return;
    case NavigationRole::closure:
        scope_marks_.push_back(bound_.size());
        frame.opened_scope = true;
        // A lone parameter without parentheses: `x => …`, `x -> …`.
        if (TSNode parameter = child(frame.node, fields_.parameter); role(parameter) == NavigationRole::identifier)
            bind_local(parameter);
        if (TSNode parameters = child(frame.node, fields_.parameters); role(parameters) == NavigationRole::identifier)
            bind_local(parameters);
        // A comprehension's variables are bound by its `for` clauses, which come after the element.
        if (language_ == Language::python)
            for (std::uint32_t i = 0, n = named_count(frame.node); i < n; ++i)
                if (TSNode clause = named_child(frame.node, i); is(clause, "for_in_clause")) bind_pattern(child(clause, fields_.left));
        return;
    case NavigationRole::local_binding: bind_statement(frame); return;
    case NavigationRole::assignment: define_assignment(frame); return;
    case NavigationRole::global_statement:
        note_globals(frame.node);
        frame.descend = false;
        return;
    case NavigationRole::import:
        read_import(frame.node);
        frame.descend = false;
        return;
    case NavigationRole::comment:
        note_comment(frame.node);
        frame.descend = false;
        return;
    case NavigationRole::transparent_prefix:
        note_prefix(frame.node);
        frame.descend = language_ != Language::rust;  // #[derive(Debug)] names macros, not uses worth indexing
        return;
    case NavigationRole::package:
        read_package(frame.node);
        frame.descend = false;
        return;
    case NavigationRole::export_statement: frame.exporting = true; return;
    case NavigationRole::opaque: frame.descend = false; return;
    case NavigationRole::property_pair: define_property(frame); return;
    default: return;
    }
}

void Extraction::leave(Frame& frame) {
    if (frame.opened_scope) {
        std::size_t mark = scope_marks_.back();
        scope_marks_.pop_back();
        while (bound_.size() > mark) {
            auto found = locals_.find(bound_.back());
            if (found != locals_.end() && --found->second.count == 0) locals_.erase(found);
            bound_.pop_back();
        }
        if (scope_marks_.empty()) globals_.clear();
    }
    if (frame.opened_definition) definitions_open_.pop_back();
    if (frame.opened_container) containers_.pop_back();
}

// A name in use: a reference unless it is a local, a definition's own name, an imported module or
// a builtin. Its kind and qualifier come from the nodes around it.
void Extraction::use_name(Frame& frame) {
    std::uint32_t start = ts_node_start_byte(frame.node);
    if (consume_skip(start)) return;
    std::string_view name = tree_.text(frame.node);
    if (name.empty()) return;
    const Frame& parent = frames_[frames_.size() - 2];
    Reference reference;
    bool type_use = frame.role == NavigationRole::type_identifier || frame.in_type;
    bool member_part = false;
    if (parent.role == NavigationRole::member_access || parent.role == NavigationRole::scoped_name) {
        TSFieldId field = frame.field;
        member_part = field && (field == fields_.field || field == fields_.property || field == fields_.attribute ||
                                field == fields_.name);
        if (member_part) {
            TSNode object = child(parent.node, fields_.operand);
            if (ts_node_is_null(object)) object = child(parent.node, fields_.object);
            if (ts_node_is_null(object)) object = child(parent.node, fields_.argument);
            if (ts_node_is_null(object)) object = child(parent.node, fields_.value);
            if (ts_node_is_null(object)) object = child(parent.node, fields_.scope);
            if (ts_node_is_null(object)) object = child(parent.node, fields_.path);
            if (ts_node_is_null(object)) object = child(parent.node, fields_.package);
            if (ts_node_is_null(object)) object = child(parent.node, fields_.module);
            reference.member = !ts_node_is_null(object);
            reference.qualifier = intern(qualifier_of(object));
            reference.kind = parent.callee ? ReferenceKind::call
                             : parent.writes ? ReferenceKind::write
                             : (type_use || parent.in_type)
                                 ? ReferenceKind::type
                                 : ReferenceKind::read;
        }
    } else if (parent.role == NavigationRole::call && language_ == Language::java && frame.field &&
               frame.field == fields_.name) {
        // Java's method_invocation: `object.name(arguments)`.
        member_part = true;
        TSNode object = child(parent.node, fields_.object);
        reference.member = !ts_node_is_null(object);
        reference.qualifier = intern(qualifier_of(object));
        reference.kind = ReferenceKind::call;
    }
    if (!member_part) {
        if (in_function() && locals_.find(name) != locals_.end()) return;
        if (!module_aliases_.empty() && module_aliases_.count(name)) return;
        if (is_builtin(name) || is_keyword(name)) return;
        reference.kind = frame.callee ? ReferenceKind::call
                         : frame.writes ? ReferenceKind::write
                         : type_use ? ReferenceKind::type
                                    : ReferenceKind::read;
    }
    reference.name = intern(name);
    TSPoint point = ts_node_start_point(frame.node);
    reference.line = point.row + 1;
    reference.column = point.column + 1;
    reference.enclosing = enclosing();
    out_.references.push_back(reference);
}

}  // namespace extraction

FileSymbols extract_symbols(const SyntaxTree& tree, std::string path) {
    FileSymbols symbols;
    symbols.path = std::move(path);
    symbols.language = tree.language();
    extraction::Extraction extraction(tree, symbols);
    extraction.run();
    return symbols;
}

FileSymbols extract_symbols(std::string_view source, Language language, std::string path,
                            const std::atomic<std::size_t>* cancel) {
    // The same limit as the metrics: a pathological file must not hold a worker for minutes.
    ParseOutcome outcome = parse(source, language, std::chrono::seconds(20), cancel);
    if (!outcome.tree) {
        FileSymbols symbols;
        symbols.path = std::move(path);
        symbols.language = language;
        symbols.parse_failed = true;
        return symbols;
    }
    return extract_symbols(*outcome.tree, std::move(path));
}

}  // namespace mcpkit::analyze
