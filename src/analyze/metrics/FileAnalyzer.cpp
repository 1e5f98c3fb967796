#include "analyze/metrics/FileAnalyzer.hpp"

#include "analyze/metrics/Findings.hpp"
#include "analyze/metrics/LineCounter.hpp"
#include "analyze/metrics/Maintainability.hpp"
#include "analyze/metrics/PythonRawLines.hpp"
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
        report.lines = count_lines(source, language);
        if (report.parse_timed_out)
            report.findings.push_back({"parse-timeout", "warning", 1, "",
                                       "Parsing took longer than the limit; only the line total is reliable."});
        return report;
    }
    WalkOutput walked;
    walk_syntax(*parsed.tree, report, walked);

    report.lines = count_lines(source, language);
    report.parse_errors = walked.error_count;

    double lines_for_mi = double(report.lines.code);
    double comment_percent = 0.0;
    if (language == Language::python) {
        // radon mi's inputs, with its default -m: multi-line strings count as comments.
        PythonRawLines raw = count_python_raw_lines(source);
        report.logical_lines = raw.lloc;
        report.comment_lines_for_mi = raw.comments + raw.multi;
        lines_for_mi = double(raw.lloc);
        comment_percent = raw.sloc > 0 ? 100.0 * double(report.comment_lines_for_mi) / double(raw.sloc) : 0.0;
    } else {
        report.comment_lines_for_mi = report.lines.comment;
        comment_percent = report.lines.code > 0 ? 100.0 * double(report.lines.comment) / double(report.lines.code) : 0.0;
    }
    report.maintainability_index =
        maintainability_index(report.halstead.volume(), report.cyclomatic_total, lines_for_mi, comment_percent);

    std::vector<ByteRange> comment_like = merge_ranges(walked.comments, walked.docstrings);
    add_findings(report, source, comment_like, walked.error_lines, options.thresholds);
    summarize_functions(report);
    return report;
}

}  // namespace mcpkit::analyze
