#pragma once
// cloc's line split from the syntax tree's comment ranges: blank (whitespace only), comment
// (nothing but comment text), code (anything else, a trailing comment included).

#include "analyze/metrics/FileReport.hpp"
#include "analyze/metrics/SyntaxWalk.hpp"

#include <span>
#include <string_view>

namespace mcpkit::analyze {

/// `comments` must be sorted by begin and not overlap.
LineCounts count_lines(std::string_view source, std::span<const ByteRange> comments);

/// Merges two sorted range lists (comments and docstrings) into one sorted, non-overlapping list.
std::vector<ByteRange> merge_ranges(std::span<const ByteRange> first, std::span<const ByteRange> second);

}  // namespace mcpkit::analyze
