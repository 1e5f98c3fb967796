#include "analyze/metrics/Findings.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace mcpkit::analyze {

namespace {

int line_at(std::string_view source, std::size_t offset, std::size_t& cursor, int& line) {
    for (; cursor < offset && cursor < source.size(); ++cursor)
        if (source[cursor] == '\n') ++line;
    return line;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// TODO, FIXME, XXX and HACK as words, in upper case, as people write them to be found.
void marker_findings(FileReport& report, std::string_view source, std::span<const ByteRange> comments) {
    static constexpr std::string_view markers[] = {"TODO", "FIXME", "XXX", "HACK"};
    std::size_t cursor = 0;
    int line = 1;
    for (const ByteRange& range : comments) {
        std::string_view text = source.substr(range.begin, range.end - range.begin);
        for (std::string_view marker : markers) {
            for (std::size_t at = text.find(marker); at != std::string_view::npos; at = text.find(marker, at + 1)) {
                bool starts = at == 0 || !is_word_char(text[at - 1]);
                bool ends = at + marker.size() >= text.size() || !is_word_char(text[at + marker.size()]);
                if (!starts || !ends) continue;
                int marker_line = line_at(source, range.begin + at, cursor, line);
                std::size_t line_end = text.find('\n', at);
                std::string_view rest = text.substr(at, line_end == std::string_view::npos ? std::string_view::npos
                                                                                          : line_end - at);
                while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ' || rest.back() == '/' ||
                                         rest.back() == '*'))
                    rest.remove_suffix(1);
                if (rest.size() > 160) rest = rest.substr(0, 160);
                report.findings.push_back({"todo", "info", marker_line, "", std::string(rest)});
                break;  // one finding per marker kind and comment
            }
        }
    }
}

}  // namespace

void add_findings(FileReport& report, std::string_view source, std::span<const ByteRange> comments,
                  std::span<const int> error_lines, const FindingThresholds& thresholds) {
    for (const FunctionMetrics& function : report.functions) {
        if (function.cyclomatic > thresholds.cyclomatic_warning) {
            bool severe = function.cyclomatic > thresholds.cyclomatic_error;
            report.findings.push_back(
                {"high-complexity", severe ? "error" : "warning", function.start_line, function.name,
                 "Cyclomatic complexity " + std::to_string(function.cyclomatic) + " (over " +
                     std::to_string(severe ? thresholds.cyclomatic_error : thresholds.cyclomatic_warning) +
                     "): split it into smaller functions, or replace branches with lookups."});
        }
        if (function.cognitive > thresholds.cognitive_warning)
            report.findings.push_back({"high-cognitive-complexity", "warning", function.start_line, function.name,
                                       "Cognitive complexity " + std::to_string(function.cognitive) + " (over " +
                                           std::to_string(thresholds.cognitive_warning) +
                                           "): flatten nesting with early returns."});
        if (function.lines() > thresholds.function_lines_warning)
            report.findings.push_back({"long-function", "warning", function.start_line, function.name,
                                       std::to_string(function.lines()) + " lines long (over " +
                                           std::to_string(thresholds.function_lines_warning) + ")."});
        if (function.max_nesting > thresholds.nesting_warning)
            report.findings.push_back({"deep-nesting", "warning", function.start_line, function.name,
                                       "Control structures nest " + std::to_string(function.max_nesting) +
                                           " deep (over " + std::to_string(thresholds.nesting_warning) + ")."});
    }
    if (report.lines.code > 0 && report.maintainability_index < thresholds.maintainability_warning) {
        char text[160];
        std::snprintf(text, sizeof text, "Maintainability index %.1f (under %.0f): the file is large, complex or both.",
                      report.maintainability_index, thresholds.maintainability_warning);
        report.findings.push_back({"low-maintainability", "warning", 1, "", text});
    }
    marker_findings(report, source, comments);
    for (int line : error_lines)
        report.findings.push_back({"parse-error", "error", line, "",
                                   "The parser could not make sense of the code here; metrics near it may be off."});
    if (report.parse_errors > static_cast<int>(error_lines.size()))
        report.findings.push_back({"parse-error", "error", error_lines.empty() ? 1 : error_lines.back(), "",
                                   std::to_string(report.parse_errors - static_cast<int>(error_lines.size())) +
                                       " more unparsable places not listed."});
    std::stable_sort(report.findings.begin(), report.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.line < b.line; });
}

}  // namespace mcpkit::analyze
