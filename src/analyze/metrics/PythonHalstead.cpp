#include "analyze/metrics/PythonHalstead.hpp"

#include <cstring>
#include <string>

namespace mcpkit::analyze {

namespace {

bool is(TSNode node, const char* type) { return !ts_node_is_null(node) && std::strcmp(ts_node_type(node), type) == 0; }

TSNode field(TSNode node, const char* name) {
    return ts_node_child_by_field_name(node, name, static_cast<std::uint32_t>(std::strlen(name)));
}

// Python's ast drops parentheses.
TSNode unwrap(TSNode node) {
    while (is(node, "parenthesized_expression") && ts_node_named_child_count(node) == 1)
        node = ts_node_named_child(node, 0);
    return node;
}

struct Counter {
    const SyntaxTree& tree;
    HalsteadTally& function_tally;
    HalsteadTally& file_tally;

    void op(std::string_view key) {
        function_tally.add_operator(key);
        file_tally.add_operator(key);
    }
    // radon keys an operand by its name (Name.id) or value (Constant): anything else is a new object.
    void operand(TSNode node) {
        node = unwrap(node);
        const char* type = ts_node_type(node);
        bool keyed = std::strcmp(type, "identifier") == 0 || std::strcmp(type, "integer") == 0 ||
                     std::strcmp(type, "float") == 0 || std::strcmp(type, "true") == 0 ||
                     std::strcmp(type, "false") == 0 || std::strcmp(type, "none") == 0 ||
                     (std::strcmp(type, "string") == 0 && !has_interpolation(node));
        if (keyed) {
            std::string_view text = tree.text(node);
            function_tally.add_operand(text);
            file_tally.add_operand(text);
        } else {
            function_tally.add_unique_operand();
            file_tally.add_unique_operand();
        }
    }
    static bool has_interpolation(TSNode string) {
        for (std::uint32_t i = 0, n = ts_node_named_child_count(string); i < n; ++i)
            if (is(ts_node_named_child(string, i), "interpolation")) return true;
        return false;
    }
};

// `a and b and c` is one BoolOp with three values in Python's ast, two nested nodes here.
void boolean_operands(Counter& counter, TSNode node, std::string_view op) {
    for (const char* side : {"left", "right"}) {
        TSNode child = field(node, side);
        TSNode operator_node = field(child, "operator");
        if (is(child, "boolean_operator") && !ts_node_is_null(operator_node) && counter.tree.text(operator_node) == op)
            boolean_operands(counter, child, op);
        else
            counter.operand(child);
    }
}

}  // namespace

void python_halstead(const SyntaxTree& tree, TSNode node, HalsteadTally& function_tally, HalsteadTally& file_tally) {
    const char* type = ts_node_type(node);
    Counter counter{tree, function_tally, file_tally};
    if (std::strcmp(type, "binary_operator") == 0) {
        counter.op(tree.text(field(node, "operator")));
        counter.operand(field(node, "left"));
        counter.operand(field(node, "right"));
    } else if (std::strcmp(type, "unary_operator") == 0) {
        std::string_view op = tree.text(field(node, "operator"));
        counter.op(op == "-" ? "u-" : op == "+" ? "u+" : op);
        counter.operand(field(node, "argument"));
    } else if (std::strcmp(type, "not_operator") == 0) {
        counter.op("not");
        counter.operand(field(node, "argument"));
    } else if (std::strcmp(type, "augmented_assignment") == 0) {
        std::string_view op = tree.text(field(node, "operator"));
        if (!op.empty() && op.back() == '=') op.remove_suffix(1);  // `+=` is ast.Add, like `+`
        counter.op(op);
        counter.operand(field(node, "left"));
        counter.operand(field(node, "right"));
    } else if (std::strcmp(type, "boolean_operator") == 0) {
        TSNode operator_node = field(node, "operator");
        std::string_view op = tree.text(operator_node);
        TSNode parent = ts_node_parent(node);
        TSNode parent_operator = field(parent, "operator");
        if (is(parent, "boolean_operator") && !ts_node_is_null(parent_operator) && tree.text(parent_operator) == op)
            return;  // counted with the outermost node of the run
        counter.op(op);
        boolean_operands(counter, node, op);
    } else if (std::strcmp(type, "comparison_operator") == 0) {
        // Children alternate operand, operator, operand, … (`not in` and `is not` are one operator).
        std::uint32_t count = ts_node_child_count(node);
        for (std::uint32_t i = 0; i < count; ++i) {
            TSNode child = ts_node_child(node, i);
            if (ts_node_is_named(child)) {
                counter.operand(child);
            } else {
                std::string_view op = tree.text(child);
                if ((op == "not" || op == "is") && i + 1 < count && !ts_node_is_named(ts_node_child(node, i + 1))) {
                    std::string_view next = tree.text(ts_node_child(node, i + 1));
                    counter.op(op == "not" ? "not in" : "is not");
                    (void)next;
                    ++i;
                } else {
                    counter.op(op);
                }
            }
        }
    }
}

}  // namespace mcpkit::analyze
