#include "analyze/metrics/FileAnalyzer.hpp"

#include "analyze/metrics/Findings.hpp"
#include "analyze/metrics/LineCounter.hpp"
#include "analyze/metrics/Maintainability.hpp"
#include "analyze/metrics/SyntaxWalk.hpp"
#include "analyze/syntax/SyntaxTree.hpp"

namespace mcpkit::analyze {

FileReport analyze_source(std::string_view path, std::string_view source, Language language,
                          const FileAnalysisOptions& options) {
    FileReport report;
    report.path = std::string(path);
    report.language = language;
    report.bytes = static_cast<std::int64_t>(source.size());

    ParseOutcome parsed = parse(source, language, options.parse_timeout, options.cancel);
    if (!parsed.tree) {
        report.parse_timed_out = parsed.status == ParseStatus::timed_out;
        report.lines = count_lines(source, {});
        if (report.parse_timed_out)
            report.findings.push_back({"parse-timeout", "warning", 1, "",
                                       "Parsing took longer than the limit; only the line total is reliable."});
        return report;
    }
    WalkOutput walked;
    walk_syntax(*parsed.tree, report, walked);

    // cloc counts Python docstrings as comments.
    std::vector<ByteRange> comment_like = merge_ranges(walked.comments, walked.docstrings);
    report.lines = count_lines(source, comment_like);
    report.parse_errors = walked.error_count;

    if (language == Language::python) {
        // radon mi (with -m, its default): comment lines plus docstring lines, over lloc.
        report.comment_lines_for_mi = report.lines.comment;
    } else {
        report.comment_lines_for_mi = report.lines.comment;
    }
    double lines_for_mi = double(language == Language::python ? report.logical_lines : report.lines.code);
    double base = double(language == Language::python ? report.lines.code : report.lines.code);
    double comment_percent = base > 0 ? 100.0 * double(report.comment_lines_for_mi) / base : 0.0;
    report.maintainability_index =
        maintainability_index(report.halstead.volume(), report.cyclomatic_total, lines_for_mi, comment_percent);

    add_findings(report, source, comment_like, walked.error_lines, options.thresholds);
    return report;
}

}  // namespace mcpkit::analyze
