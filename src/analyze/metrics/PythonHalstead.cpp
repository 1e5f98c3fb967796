#include "analyze/metrics/PythonHalstead.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

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

// The value radon keys a Constant by, in a form where equal Python values are equal strings:
// 1, 1.0 and True are one operand; 'x' and "x" are one operand, and the same as the name x.
std::string constant_key(std::string_view text, const char* type) {
    if (std::strcmp(type, "true") == 0) return "#1";
    if (std::strcmp(type, "false") == 0) return "#0";
    if (std::strcmp(type, "none") == 0) return "#None";
    std::string digits;
    for (char c : text)
        if (c != '_') digits.push_back(c);
    if (std::strcmp(type, "integer") == 0) {
        try {
            int base = 10;
            std::string_view body = digits;
            if (body.size() > 2 && body[0] == '0') {
                char kind = static_cast<char>(body[1] | 0x20);
                base = kind == 'x' ? 16 : kind == 'o' ? 8 : kind == 'b' ? 2 : 10;
                if (base != 10) body.remove_prefix(2);
            }
            if (!body.empty() && (body.back() | 0x20) == 'j') return "#" + digits;  // imaginary
            return "#" + std::to_string(std::stoull(std::string(body), nullptr, base));
        } catch (const std::exception&) {
            return "#" + digits;  // beyond 64 bits: the text is as good a key
        }
    }
    if (std::strcmp(type, "float") == 0) {
        if (!digits.empty() && (digits.back() | 0x20) == 'j') return "#" + digits;
        try {
            double value = std::stod(digits);
            if (std::abs(value) < 9e15 && value == static_cast<double>(static_cast<long long>(value)))
                return "#" + std::to_string(static_cast<long long>(value));
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "#%.17g", value);
            return buffer;
        } catch (const std::exception&) {
            return "#" + digits;
        }
    }
    return std::string(text);
}

// A string literal's value, roughly: its body without prefix and quotes (escapes are left as
// written). Bytes are never equal to str.
std::string string_key(std::string_view text) {
    std::size_t quote = text.find_first_of("'\"");
    if (quote == std::string_view::npos) return std::string(text);
    std::string_view prefix = text.substr(0, quote);
    bool bytes = prefix.find_first_of("bB") != std::string_view::npos;
    std::string_view body = text.substr(quote);
    std::size_t fence = body.size() >= 6 && body[1] == body[0] && body[2] == body[0] ? 3 : 1;
    body = body.substr(fence, body.size() >= 2 * fence ? body.size() - 2 * fence : 0);
    return (bytes ? "b:" : "") + std::string(body);
}

struct Counter {
    const SyntaxTree& tree;
    std::string_view context;
    HalsteadTally& function_tally;
    HalsteadTally& file_tally;

    void op(std::string_view key) {
        function_tally.add_operator(key);
        file_tally.add_operator(key);
    }
    // radon keys an operand by (function name, value): Name.id, Attribute.attr or Constant.value;
    // anything else is a new object every time.
    void operand(TSNode node) {
        node = unwrap(node);
        const char* type = ts_node_type(node);
        std::string value;
        bool keyed = true;
        if (std::strcmp(type, "identifier") == 0) {
            value = tree.text(node);
        } else if (std::strcmp(type, "attribute") == 0) {
            value = tree.text(field(node, "attribute"));
        } else if (std::strcmp(type, "integer") == 0 || std::strcmp(type, "float") == 0 ||
                   std::strcmp(type, "true") == 0 || std::strcmp(type, "false") == 0 ||
                   std::strcmp(type, "none") == 0) {
            value = constant_key(tree.text(node), type);
        } else if (std::strcmp(type, "string") == 0 && !has_interpolation(node)) {
            value = string_key(tree.text(node));
        } else if (std::strcmp(type, "concatenated_string") == 0 && !has_interpolation(node)) {
            for (std::uint32_t i = 0, n = ts_node_named_child_count(node); i < n; ++i)
                value += string_key(tree.text(ts_node_named_child(node, i)));
        } else {
            keyed = false;
        }
        if (!keyed) {
            function_tally.add_unique_operand();
            file_tally.add_unique_operand();
            return;
        }
        std::string key;
        key.reserve(context.size() + 1 + value.size());
        key.append(context).push_back('\0');
        key += value;
        function_tally.add_keyed_operand(std::string(key));
        file_tally.add_keyed_operand(std::move(key));
    }
    static bool has_interpolation(TSNode string) {
        for (std::uint32_t i = 0, n = ts_node_named_child_count(string); i < n; ++i) {
            TSNode child = ts_node_named_child(string, i);
            if (is(child, "interpolation") || (is(child, "string") && has_interpolation(child))) return true;
        }
        return false;
    }
};

// `a and b and c` is one BoolOp with three values in Python's ast, two nested nodes here. A stack,
// not recursion: a file of 100,000 `and`s nests as deep, and would overflow the thread's stack.
void boolean_operands(Counter& counter, TSNode node, std::string_view op) {
    std::vector<TSNode> pending{field(node, "right"), field(node, "left")};  // left comes off first
    while (!pending.empty()) {
        TSNode child = pending.back();
        pending.pop_back();
        TSNode operator_node = field(child, "operator");
        if (is(child, "boolean_operator") && !ts_node_is_null(operator_node) && counter.tree.text(operator_node) == op) {
            pending.push_back(field(child, "right"));
            pending.push_back(field(child, "left"));
        } else {
            counter.operand(child);
        }
    }
}

}  // namespace

void python_halstead(const SyntaxTree& tree, TSNode node, TSNode parent, std::string_view context, HalsteadTally& function_tally,
                     HalsteadTally& file_tally) {
    const char* type = ts_node_type(node);
    Counter counter{tree, context, function_tally, file_tally};
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
