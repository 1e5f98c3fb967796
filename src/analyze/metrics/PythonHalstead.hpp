#pragma once
// Halstead counts for Python the way radon counts them, so that the maintainability index agrees
// with `radon mi`: only arithmetic, unary, boolean, comparison and augmented-assignment
// expressions count; operators are keyed by kind, operands by name or literal value, and any other
// expression operand is distinct from every other.

#include "analyze/metrics/HalsteadTally.hpp"
#include "analyze/syntax/SyntaxTree.hpp"

namespace mcpkit::analyze {

/// `parent`: the node's parent (null at the root). `context`: the innermost enclosing function's
/// own name (radon keys operands by it), empty at module and class level.
void python_halstead(const SyntaxTree& tree, TSNode node, TSNode parent, std::string_view context, HalsteadTally& function_tally,
                     HalsteadTally& file_tally);

}  // namespace mcpkit::analyze
