#pragma once
// Analysing one file or snippet: parse, walk, count lines, derive the maintainability index, and
// report findings.

#include "analyze/metrics/FileReport.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string_view>

namespace mcpkit::analyze {

/// Where findings start. The defaults follow common practice: radon ranks cc above 10 as
/// "moderate" (C) and above 20 as "high" (D and worse); SonarSource flags cognitive complexity
/// above 15.
struct FindingThresholds {
    int cyclomatic_warning = 10;
    int cyclomatic_error = 20;
    int cognitive_warning = 15;
    int function_lines_warning = 60;
    int nesting_warning = 4;
    double maintainability_warning = 20.0;  ///< radon's rank C ("extremely low") starts below 10; 20 is Microsoft's
};

struct FileAnalysisOptions {
    FindingThresholds thresholds;
    std::chrono::microseconds parse_timeout{std::chrono::seconds(10)};
    const std::atomic<std::size_t>* cancel = nullptr;  ///< non-zero stops the parse
};

/// Analyses `source` as `language`; `path` names it in the report and findings. A parse that
/// times out yields line counts only and a finding that says so.
FileReport analyze_source(std::string_view path, std::string_view source, Language language,
                          const FileAnalysisOptions& options = {});

}  // namespace mcpkit::analyze
