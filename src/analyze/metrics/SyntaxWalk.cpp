#include "analyze/metrics/SyntaxWalk.hpp"

#include "analyze/metrics/HalsteadTally.hpp"
#include "analyze/metrics/PythonHalstead.hpp"
#include "analyze/syntax/Naming.hpp"
#include "analyze/syntax/NodeRoles.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace mcpkit::analyze {

namespace {

constexpr int max_error_lines = 20;

int line_of(TSNode node) { return static_cast<int>(ts_node_start_point(node).row) + 1; }
int end_line_of(TSNode node) {
    TSPoint end = ts_node_end_point(node);
    // A node ending at column 0 ended with the previous line's newline.
    return static_cast<int>(end.row) + (end.column == 0 && end.row > 0 ? 0 : 1);
}

TSNode field(TSNode node, const char* name) {
    return ts_node_child_by_field_name(node, name, static_cast<std::uint32_t>(std::strlen(name)));
}

/// The operator token of a binary node when it is a short-circuit one (&&, ||, ??, and, or).
const char* logical_operator_of(TSNode node) {
    TSNode op = field(node, "operator");
    if (ts_node_is_null(op)) return nullptr;
    const char* type = ts_node_type(op);
    if (std::strcmp(type, "&&") == 0 || std::strcmp(type, "||") == 0 || std::strcmp(type, "??") == 0 ||
        std::strcmp(type, "and") == 0 || std::strcmp(type, "or") == 0)
        return type;
    return nullptr;
}

struct Scope {
    int function = -1;  ///< index into report.functions; -1 for the file itself
    int nesting = 0;
    int decisions = 0;
    int cognitive = 0;
    int max_nesting = 0;
    HalsteadTally halstead;
};

struct Frame {
    TSNode node{};  ///< kept so children can look at their parent without ts_node_parent (a tree search)
    std::uint32_t roles = 0;
    bool opened_scope = false;
    bool opened_type = false;
    bool opened_uncounted = false;
    std::uint32_t condition_start = 0;  ///< an #if/#elif: where its condition starts
    bool else_if_wrapper = false;  ///< an else whose body is an if: the if counts, not the else
    int nesting_added = 0;
    const char* logical_operator = nullptr;
};

class Walker {
public:
    Walker(const SyntaxTree& tree, FileReport& report, WalkOutput& output)
        : tree_(tree), report_(report), output_(output), roles_(NodeRoles::of(tree.language())),
          python_(tree.language() == Language::python) {
        scopes_.emplace_back(std::make_unique<Scope>());
    }

    void run() {
        TSTreeCursor cursor = ts_tree_cursor_new(tree_.root());
        for (;;) {
            enter(ts_tree_cursor_current_node(&cursor));
            if (ts_tree_cursor_goto_first_child(&cursor)) continue;
            for (;;) {
                leave(ts_tree_cursor_current_node(&cursor));
                if (ts_tree_cursor_goto_next_sibling(&cursor)) break;
                if (!ts_tree_cursor_goto_parent(&cursor)) {
                    ts_tree_cursor_delete(&cursor);
                    finish();
                    return;
                }
            }
        }
    }

private:
    Scope& scope() { return *scopes_.back(); }

    // radon's Halstead context: the innermost def's own name (`K.f` and `f` share one).
    std::string_view halstead_context() const {
        int function = scopes_.back()->function;
        if (function < 0) return {};
        std::string_view name = report_.functions[static_cast<std::size_t>(function)].name;
        std::size_t dot = name.rfind('.');
        return dot == std::string_view::npos ? name : name.substr(dot + 1);
    }
    Frame* parent_frame() { return frames_.empty() ? nullptr : &frames_.back(); }

    void decision(int count = 1) {
        if (uncounted_depth_ > 0) return;  // inside an assert (radon) or an #if condition (pmccabe)
        scope().decisions += count;
        if (!types_.empty() && types_.back().scope_depth == static_cast<int>(scopes_.size()))
            class_body_decisions_[static_cast<std::size_t>(types_.back().index)] += count;
        file_decisions_ += count;
    }

    void nest(Frame& frame) {
        ++scope().nesting;
        frame.nesting_added = 1;
        scope().max_nesting = std::max(scope().max_nesting, scope().nesting);
    }

    void enter(TSNode node) {
        Frame frame;
        frame.node = node;
        TSSymbol symbol = ts_node_symbol(node);
        std::uint32_t roles = roles_[symbol];
        frame.roles = roles;

        if (symbol == static_cast<TSSymbol>(-1) || ts_node_is_missing(node)) {  // ERROR (tree-sitter's built-in error symbol)
            if (output_.error_count++ < max_error_lines) output_.error_lines.push_back(line_of(node));
        }
        if (ts_node_child_count(node) == 0) leaf(node, roles);
        // pmccabe does not count the && and || of an #if condition: they decide what compiles.
        Frame* owner = parent_frame();
        if (owner && owner->condition_start != 0 && ts_node_start_byte(node) == owner->condition_start) {
            ++uncounted_depth_;
            frame.opened_uncounted = true;
        }
        if (roles & role::preprocessor_conditional) {
            TSNode condition = field(node, "condition");
            if (!ts_node_is_null(condition)) frame.condition_start = ts_node_start_byte(condition);
        }
        if (roles == 0) {
            frames_.push_back(frame);
            return;
        }
        if (roles & role::comment) output_.comments.push_back({ts_node_start_byte(node), ts_node_end_byte(node)});
        if (roles & role::statement) ++report_.logical_lines;
        if (roles & role::import) collect_imports(tree_, node, report_.imports);
        if (python_ && (roles & role::string)) python_string(node, owner);
        if (python_ && (roles & (role::operation | role::logical_operator)))
            python_halstead(tree_, node, owner ? owner->node : TSNode{}, halstead_context(), scope().halstead, file_halstead_);

        if (roles & role::type) open_type(node, frame);
        if (roles & role::function) open_function(node, frame, "function");
        if ((roles & role::closure) && !python_) open_function(node, frame, "closure");
        if ((roles & role::closure) && python_) nest(frame);  // a lambda nests but does not count apart (radon)

        complexity(node, roles, frame);
        frames_.push_back(frame);
    }

    void complexity(TSNode node, std::uint32_t roles, Frame& frame) {
        Scope& current = scope();
        Frame* parent = parent_frame();
        if (roles & role::branch) {
            decision();
            if (parent && parent->else_if_wrapper) {
                current.cognitive += 1;  // else if: no nesting penalty, and the chain stays at one level
            } else {
                current.cognitive += 1 + current.nesting;
                nest(frame);
            }
        }
        if (roles & role::loop) {
            // Rust's `loop` has no condition of its own: its exits are counted where they are.
            if (std::strcmp(ts_node_type(node), "loop_expression") != 0) decision();
            if (python_ && !ts_node_is_null(field(node, "alternative"))) decision();  // for/while … else
            current.cognitive += 1 + current.nesting;
            nest(frame);
        }
        if (roles & role::switch_statement) {
            current.cognitive += 1 + current.nesting;
            nest(frame);
            if (roles & role::match) {
                // n arms are n paths: n - 1 decisions. Each arm adds one below.
                decision(-1);
            }
        }
        // radon counts nothing for match/case, nor for a case's guard.
        if ((roles & role::case_label) && !python_) {
            if (!is_default_label(node)) decision();
        }
        if (roles & role::handler) {
            decision();
            current.cognitive += 1 + current.nesting;
            nest(frame);
        }
        if (roles & role::ternary) {
            decision();
            current.cognitive += 1 + current.nesting;
            nest(frame);
        }
        if (roles & role::else_if) {
            decision();
            current.cognitive += 1;
        }
        if (roles & role::else_clause) {
            TSNode body = ts_node_named_child(node, 0);
            bool wraps_if = !ts_node_is_null(body) && (roles_[ts_node_symbol(body)] & role::branch) &&
                            ts_node_named_child_count(node) == 1;
            bool after_if = parent && (parent->roles & role::branch);
            if (wraps_if) {
                frame.else_if_wrapper = true;
            } else if (after_if) {
                current.cognitive += 1;
            } else if (python_ && parent && (parent->roles & role::try_statement)) {
                decision();  // try … else (radon)
            }
        }
        if ((roles & role::comprehension) && !(python_ && parent && (parent->roles & role::case_label))) decision();
        if (roles & role::assertion) {
            decision();
            ++uncounted_depth_;
            frame.opened_uncounted = true;
        }
        if (roles & role::jump) current.cognitive += 1;
        if (roles & role::logical_operator) {
            frame.logical_operator = logical_operator_of(node);
            if (frame.logical_operator) {
                decision();
                // A run of the same operator counts once; each change of operator counts again.
                bool continues_run = parent && parent->logical_operator &&
                                     std::strcmp(parent->logical_operator, frame.logical_operator) == 0;
                if (!continues_run) current.cognitive += 1;
            }
        }
    }

    bool is_default_label(TSNode node) const {
        const char* type = ts_node_type(node);
        if (std::strcmp(type, "case_statement") == 0) return ts_node_is_null(field(node, "value"));
        if (std::strcmp(type, "switch_label") == 0) return tree_.text(node).substr(0, 7) == "default";
        if (std::strcmp(type, "case_clause") == 0) {
            // Python `case _:` is the catch-all.
            TSNode pattern = ts_node_named_child(node, 0);
            return !ts_node_is_null(pattern) && tree_.text(pattern) == "_";
        }
        return false;
    }

    void open_type(TSNode node, Frame& frame) {
        std::string name = type_name(tree_, node);
        if (name.empty()) return;
        TypeSymbol type;
        type.name = types_.empty() ? name : types_.back().qualified + separator() + name;
        type.kind = type_kind(tree_, node);
        type.start_line = line_of(node);
        type.end_line = end_line_of(node);
        if (types_.empty() && scopes_.size() == 1) top_level_types_.push_back(type.name);
        report_.types.push_back(type);
        class_body_decisions_.push_back(0);
        types_.push_back({type.name, static_cast<int>(report_.types.size()) - 1, static_cast<int>(scopes_.size())});
        frame.opened_type = true;
    }

    const char* separator() const {
        switch (tree_.language()) {
        case Language::cpp:
        case Language::rust: return "::";
        default: return ".";
        }
    }

    void open_function(TSNode node, Frame& frame, const char* kind) {
        FunctionMetrics function;
        // The node's own frame is not pushed yet: the last frame is its parent.
        TSNode parent = frames_.empty() ? TSNode{} : frames_.back().node;
        TSNode grandparent = frames_.size() < 2 ? TSNode{} : frames_[frames_.size() - 2].node;
        std::string name = function_name(tree_, node, parent, grandparent);
        std::string receiver = receiver_type(tree_, node);
        // A type directly around the function (not around an enclosing function) makes it a method.
        bool in_type = !types_.empty() && types_.back().scope_depth == static_cast<int>(scopes_.size());
        bool nested = scopes_.size() > 1;
        if (!receiver.empty()) {
            function.name = receiver + "." + name;
            function.kind = "method";
        } else if (in_type) {
            function.name = types_.back().qualified + separator() + name;
            function.kind = "method";
        } else {
            function.name = name;
            function.kind = nested || std::strcmp(kind, "closure") == 0 ? "closure" : "function";
        }
        function.start_line = line_of(node);
        function.end_line = end_line_of(node);
        TSNode parameters = field(node, "parameters");
        if (ts_node_is_null(parameters)) {
            TSNode declarator = field(node, "declarator");
            for (int guard = 0; guard < 8 && !ts_node_is_null(declarator); ++guard) {
                parameters = field(declarator, "parameters");
                if (!ts_node_is_null(parameters)) break;
                declarator = field(declarator, "declarator");
            }
        }
        function.parameters = count_parameters(parameters);
        if (ts_node_is_null(parameters) && std::strcmp(ts_node_type(node), "arrow_function") == 0 &&
            !ts_node_is_null(field(node, "parameter")))
            function.parameters = 1;
        report_.functions.push_back(std::move(function));
        auto scope = std::make_unique<Scope>();
        scope->function = static_cast<int>(report_.functions.size()) - 1;
        scopes_.push_back(std::move(scope));
        frame.opened_scope = true;
    }

    void close_function() {
        Scope& closing = scope();
        FunctionMetrics& function = report_.functions[static_cast<std::size_t>(closing.function)];
        function.cyclomatic = 1 + std::max(0, closing.decisions);
        function.cognitive = closing.cognitive;
        function.max_nesting = closing.max_nesting;
        function.halstead = closing.halstead.counts();
        ++functions_closed_;
        scopes_.pop_back();
    }

    void leave(TSNode) {
        Frame frame = frames_.back();
        frames_.pop_back();
        if (frame.nesting_added) scope().nesting -= frame.nesting_added;
        if (frame.opened_scope) close_function();
        if (frame.opened_uncounted) --uncounted_depth_;
        if (frame.opened_type) types_.pop_back();
    }

    // Halstead for every grammar but Python's: anonymous tokens are operators (closing brackets
    // excepted: a pair counts once), named tokens are operands.
    void leaf(TSNode node, std::uint32_t roles) {
        if (python_ || (roles & role::comment)) return;
        if (ts_node_is_named(node)) {
            std::string_view text = tree_.text(node);
            if (text.empty()) return;
            scope().halstead.add_operand(text);
            file_halstead_.add_operand(text);
        } else {
            const char* type = ts_node_type(node);
            if ((type[0] == ')' || type[0] == ']' || type[0] == '}') && type[1] == 0) return;
            if (ts_node_end_byte(node) == ts_node_start_byte(node)) return;  // MISSING tokens
            scope().halstead.add_operator(type);
            file_halstead_.add_operator(type);
        }
    }

    // A Python string that is a statement by itself is a docstring to cloc and radon.
    void python_string(TSNode node, const Frame* owner) {
        if (!owner) return;
        TSNode parent = owner->node;
        if (ts_node_is_null(parent) || std::strcmp(ts_node_type(parent), "expression_statement") != 0) return;
        if (ts_node_named_child_count(parent) != 1) return;
        output_.docstrings.push_back({ts_node_start_byte(node), ts_node_end_byte(node)});
    }

    void finish() {
        // radon's figure for mi: every decision in the file plus one per function and class.
        report_.cyclomatic_total = file_decisions_ + functions_closed_;
        report_.halstead = file_halstead_.counts();
        if (python_) {
            python_class_complexity();
            report_.cyclomatic_total = python_total_complexity();
        }
    }

    // radon's total_complexity (the mi input): 1 + module-level decisions + each top-level
    // function's decisions + each method of a top-level class with its 1. Nested functions and
    // classes inside functions or classes add nothing.
    int python_total_complexity() const {
        int total = 1 + scopes_.front()->decisions;
        std::unordered_set<std::string_view> top_level(top_level_types_.begin(), top_level_types_.end());
        for (const FunctionMetrics& function : report_.functions) {
            if (function.kind == "function") {
                total += function.cyclomatic - 1;
            } else if (function.kind == "method") {
                std::string_view owner = std::string_view(function.name).substr(0, function.name.rfind('.'));
                if (top_level.contains(owner)) total += function.cyclomatic;
            }
        }
        return total;
    }

    // radon's class figure: its real complexity (1 + decisions in the class body + every method's
    // complexity) averaged over its methods, rounded down, plus 1 when it has more than one.
    void python_class_complexity() {
        struct Methods {
            int complexity = 0;
            int count = 0;
        };
        // By owner (the name before the last dot): one pass, however many classes a file has.
        std::unordered_map<std::string_view, Methods> by_owner;
        for (const FunctionMetrics& function : report_.functions) {
            if (function.kind != "method") continue;
            std::size_t dot = function.name.rfind('.');
            if (dot == std::string::npos) continue;
            Methods& methods = by_owner[std::string_view(function.name).substr(0, dot)];
            methods.complexity += function.cyclomatic;
            ++methods.count;
        }
        for (std::size_t index = 0; index < report_.types.size(); ++index) {
            TypeSymbol& type = report_.types[index];
            int real = 1 + class_body_decisions_[index];
            Methods methods;
            if (auto found = by_owner.find(type.name); found != by_owner.end()) methods = found->second;
            real += methods.complexity;
            type.cyclomatic = methods.count == 0 ? real : real / methods.count + (methods.count > 1 ? 1 : 0);
        }
    }

    struct OpenType {
        std::string qualified;
        int index;
        int scope_depth;  ///< scopes_.size() when it opened: functions at that depth are its methods
    };

    const SyntaxTree& tree_;
    FileReport& report_;
    WalkOutput& output_;
    const NodeRoles& roles_;
    bool python_;
    std::vector<std::unique_ptr<Scope>> scopes_;
    std::vector<Frame> frames_;
    std::vector<OpenType> types_;
    std::vector<std::string> top_level_types_;
    std::vector<int> class_body_decisions_;  ///< per report_.types entry: decisions outside its methods  ///< Python classes at module level (radon's total)
    HalsteadTally file_halstead_;
    int file_decisions_ = 0;
    int uncounted_depth_ = 0;
    int functions_closed_ = 0;
};

}  // namespace

void walk_syntax(const SyntaxTree& tree, FileReport& report, WalkOutput& output) { Walker(tree, report, output).run(); }

std::vector<ByteRange> merge_ranges(std::span<const ByteRange> first, std::span<const ByteRange> second) {
    std::vector<ByteRange> all;
    all.reserve(first.size() + second.size());
    std::merge(first.begin(), first.end(), second.begin(), second.end(), std::back_inserter(all),
               [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
    std::vector<ByteRange> merged;
    merged.reserve(all.size());
    for (const ByteRange& range : all) {
        if (!merged.empty() && range.begin <= merged.back().end)
            merged.back().end = std::max(merged.back().end, range.end);
        else
            merged.push_back(range);
    }
    return merged;
}


}  // namespace mcpkit::analyze
