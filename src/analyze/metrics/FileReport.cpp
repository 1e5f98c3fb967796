#include "analyze/metrics/FileReport.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mcpkit::analyze {
namespace json = boost::json;

LineCounts& LineCounts::operator+=(const LineCounts& other) {
    total += other.total;
    code += other.code;
    comment += other.comment;
    blank += other.blank;
    return *this;
}

double HalsteadCounts::volume() const {
    double vocabulary_size = vocabulary();
    return vocabulary_size > 0 ? length() * std::log2(vocabulary_size) : 0.0;
}

double HalsteadCounts::difficulty() const {
    return distinct_operands > 0
               ? double(distinct_operators) / 2.0 * double(total_operands) / double(distinct_operands)
               : 0.0;
}

namespace {
double rounded(double value, double scale = 100.0) { return std::round(value * scale) / scale; }

using mcp::json_fields::integer;
using mcp::json_fields::text;
HalsteadCounts halstead_from_json(const json::object& object) {
    return {integer(object, "distinctOperators"), integer(object, "distinctOperands"), integer(object, "totalOperators"),
            integer(object, "totalOperands")};
}
}  // namespace

json::object to_json(const LineCounts& lines) {
    return {{"total", lines.total}, {"code", lines.code}, {"comment", lines.comment}, {"blank", lines.blank}};
}

json::object to_json(const HalsteadCounts& halstead) {
    return {{"distinctOperators", halstead.distinct_operators},
            {"distinctOperands", halstead.distinct_operands},
            {"totalOperators", halstead.total_operators},
            {"totalOperands", halstead.total_operands},
            {"vocabulary", halstead.vocabulary()},
            {"length", halstead.length()},
            {"volume", rounded(halstead.volume())},
            {"difficulty", rounded(halstead.difficulty())},
            {"effort", rounded(halstead.effort())}};
}

json::object to_json(const FunctionMetrics& function) {
    return {{"name", function.name},
            {"kind", function.kind},
            {"startLine", function.start_line},
            {"endLine", function.end_line},
            {"lines", function.lines()},
            {"parameters", function.parameters},
            {"cyclomatic", function.cyclomatic},
            {"cognitive", function.cognitive},
            {"maxNesting", function.max_nesting},
            {"halstead", to_json(function.halstead)}};
}

json::object to_json(const FileReport& report) {
    json::array types;
    for (const TypeSymbol& type : report.types)
        types.push_back(json::object{{"name", type.name},
                                     {"kind", type.kind},
                                     {"startLine", type.start_line},
                                     {"endLine", type.end_line},
                                     {"cyclomatic", type.cyclomatic}});
    json::array functions;
    for (const FunctionMetrics& function : report.functions) functions.push_back(to_json(function));
    json::array imports;
    for (const Import& import : report.imports) {
        json::object entry{{"target", import.target}, {"kind", import.kind}, {"line", import.line}};
        if (import.system) entry["system"] = true;
        imports.push_back(std::move(entry));
    }
    json::array findings;
    for (const Finding& finding : report.findings) {
        json::object entry{{"rule", finding.rule},
                           {"severity", finding.severity},
                           {"location", report.path + ":" + std::to_string(finding.line)},
                           {"line", finding.line},
                           {"message", finding.message}};
        if (!finding.symbol.empty()) entry["symbol"] = finding.symbol;
        findings.push_back(std::move(entry));
    }
    return {{"path", report.path},
            {"language", name(report.language)},
            {"bytes", report.bytes},
            {"lines", to_json(report.lines)},
            {"logicalLines", report.logical_lines},
            {"commentLinesForMaintainability", report.comment_lines_for_mi},
            {"types", std::move(types)},
            {"functions", std::move(functions)},
            {"imports", std::move(imports)},
            {"halstead", to_json(report.halstead)},
            {"cyclomaticTotal", report.cyclomatic_total},
            {"maintainabilityIndex", rounded(report.maintainability_index)},
            {"parseErrors", report.parse_errors},
            {"parseTimedOut", report.parse_timed_out},
            {"findings", std::move(findings)}};
}

void summarize_functions(FileReport& report) {
    report.function_totals = {};
    for (const FunctionMetrics& function : report.functions) {
        ++report.function_totals.count;
        report.function_totals.cyclomatic += function.cyclomatic;
        report.function_totals.max_cyclomatic = std::max(report.function_totals.max_cyclomatic, function.cyclomatic);
    }
}

FileReport file_report_from_json(const json::object& json) {
    FileReport report;
    report.path = text(json, "path");
    auto language = parse_language(text(json, "language"));
    if (!language) throw std::runtime_error("cached report names no known language");
    report.language = *language;
    report.bytes = integer(json, "bytes");
    const json::object& lines = json.at("lines").as_object();
    report.lines = {integer(lines, "total"), integer(lines, "code"), integer(lines, "comment"), integer(lines, "blank")};
    report.logical_lines = integer(json, "logicalLines");
    report.comment_lines_for_mi = integer(json, "commentLinesForMaintainability");
    for (const json::value& value : json.at("types").as_array()) {
        const json::object& type = value.as_object();
        report.types.push_back({text(type, "name"), text(type, "kind"), int(integer(type, "startLine")),
                                int(integer(type, "endLine")), int(integer(type, "cyclomatic"))});
    }
    for (const json::value& value : json.at("functions").as_array()) {
        const json::object& object = value.as_object();
        FunctionMetrics function;
        function.name = text(object, "name");
        function.kind = text(object, "kind");
        function.start_line = int(integer(object, "startLine"));
        function.end_line = int(integer(object, "endLine"));
        function.parameters = int(integer(object, "parameters"));
        function.cyclomatic = int(integer(object, "cyclomatic"));
        function.cognitive = int(integer(object, "cognitive"));
        function.max_nesting = int(integer(object, "maxNesting"));
        function.halstead = halstead_from_json(object.at("halstead").as_object());
        report.functions.push_back(std::move(function));
    }
    for (const json::value& value : json.at("imports").as_array()) {
        const json::object& object = value.as_object();
        const json::value* system = object.if_contains("system");
        report.imports.push_back({text(object, "target"), text(object, "kind"), int(integer(object, "line")),
                                  system && system->is_bool() && system->get_bool()});
    }
    report.halstead = halstead_from_json(json.at("halstead").as_object());
    report.cyclomatic_total = int(integer(json, "cyclomaticTotal"));
    const json::value& index = json.at("maintainabilityIndex");
    report.maintainability_index = index.is_double() ? index.get_double() : double(index.as_int64());
    report.parse_errors = int(integer(json, "parseErrors"));
    report.parse_timed_out = json.at("parseTimedOut").as_bool();
    for (const json::value& value : json.at("findings").as_array()) {
        const json::object& object = value.as_object();
        report.findings.push_back({text(object, "rule"), text(object, "severity"), int(integer(object, "line")),
                                   text(object, "symbol"), text(object, "message")});
    }
    summarize_functions(report);
    return report;
}

}  // namespace mcpkit::analyze
