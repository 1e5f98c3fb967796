#pragma once
// The findings a file's metrics call for, each at a `file:line`.

#include "analyze/metrics/FileAnalyzer.hpp"
#include "analyze/metrics/SyntaxWalk.hpp"

#include <span>
#include <string_view>

namespace mcpkit::analyze {

void add_findings(FileReport& report, std::string_view source, std::span<const ByteRange> comments,
                  std::span<const int> error_lines, const FindingThresholds& thresholds);

}  // namespace mcpkit::analyze
