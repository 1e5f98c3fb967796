#pragma once
// One pass over a syntax tree that fills a FileReport's structure and complexity: functions and
// their cyclomatic and cognitive complexity and nesting, types, imports, Halstead counts, and the
// comment and docstring ranges the line counter needs.

#include "analyze/metrics/FileReport.hpp"
#include "analyze/syntax/SyntaxTree.hpp"

#include <cstdint>
#include <utility>
#include <span>
#include <vector>

namespace mcpkit::analyze {

struct ByteRange {
    std::uint32_t begin;
    std::uint32_t end;
};

struct WalkOutput {
    std::vector<ByteRange> comments;       ///< in source order
    std::vector<ByteRange> docstrings;     ///< Python strings that stand alone as a statement
    std::vector<int> error_lines;          ///< where ERROR or MISSING nodes start (first few)
    int error_count = 0;
};

void walk_syntax(const SyntaxTree& tree, FileReport& report, WalkOutput& output);

/// Merges two sorted range lists (comments and docstrings) into one sorted, non-overlapping list.
std::vector<ByteRange> merge_ranges(std::span<const ByteRange> first, std::span<const ByteRange> second);

}  // namespace mcpkit::analyze
