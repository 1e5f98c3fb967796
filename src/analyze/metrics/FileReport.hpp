#pragma once
// What analysing one file yields. Plain data: the analyzers fill it, the cache stores it, the
// project report sums it and the tools render it.

#include "analyze/syntax/Language.hpp"

#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace mcpkit::analyze {

/// cloc's split: a line is blank (whitespace only), comment (only comment text), or code (anything
/// else, including code with a trailing comment).
struct LineCounts {
    std::int64_t total = 0;
    std::int64_t code = 0;
    std::int64_t comment = 0;
    std::int64_t blank = 0;
    LineCounts& operator+=(const LineCounts& other);
};

/// Halstead's counts; the derived measures are computed from them.
struct HalsteadCounts {
    std::int64_t distinct_operators = 0;  ///< η1
    std::int64_t distinct_operands = 0;   ///< η2
    std::int64_t total_operators = 0;     ///< N1
    std::int64_t total_operands = 0;      ///< N2
    double vocabulary() const { return double(distinct_operators + distinct_operands); }
    double length() const { return double(total_operators + total_operands); }
    double volume() const;
    double difficulty() const;
    double effort() const { return difficulty() * volume(); }
};

struct FunctionMetrics {
    std::string name;            ///< qualified: "Class.method" (Python, Go, Java, JS), "Class::method" (C++, Rust)
    std::string kind;            ///< "function", "method" or "closure"
    int start_line = 0;          ///< 1-based, the definition's first line (after decorators)
    int end_line = 0;
    int parameters = 0;
    int cyclomatic = 1;          ///< McCabe: decisions + 1
    int cognitive = 0;           ///< SonarSource cognitive complexity
    int max_nesting = 0;         ///< deepest nesting of control structures inside it
    HalsteadCounts halstead;
    int lines() const { return end_line - start_line + 1; }
};

/// A class-like definition: class, struct, interface, enum, trait, impl, namespace.
struct TypeSymbol {
    std::string name;
    std::string kind;
    int start_line = 0;
    int end_line = 0;
    int cyclomatic = 0;  ///< Python: radon's class figure (its complexity averaged over its methods)
};

struct Import {
    std::string target;  ///< as written: module, header, path, crate path
    std::string kind;    ///< "import", "member" (Python `from m import name`: m.name), "include", "require", "use", "mod", "extern crate"
    int line = 0;
    bool system = false; ///< <header> includes
};

struct Finding {
    std::string rule;      ///< "high-complexity", "long-function", "deep-nesting", "todo", "parse-error", …
    std::string severity;  ///< "info", "warning" or "error"
    int line = 0;
    std::string symbol;    ///< the function it concerns, if any
    std::string message;
};

struct FileReport {
    std::string path;
    Language language = Language::c;
    std::int64_t bytes = 0;
    LineCounts lines;
    std::vector<TypeSymbol> types;
    std::vector<FunctionMetrics> functions;
    std::vector<Import> imports;
    HalsteadCounts halstead;              ///< the whole file
    int cyclomatic_total = 0;             ///< decisions in the whole file plus one per function (radon's mi figure)
    std::int64_t logical_lines = 0;       ///< statements (radon's lloc for Python)
    std::int64_t comment_lines_for_mi = 0;///< comment lines radon mi counts (with docstrings, -m)
    double maintainability_index = 100.0;
    int parse_errors = 0;                 ///< ERROR and MISSING nodes
    bool parse_timed_out = false;
    std::vector<Finding> findings;
    /// Over every function, so they stay right when a large project keeps only a file's few
    /// functions worth a hotspot (ProjectOptions::keep_details): how many, complexity summed, the most.
    struct FunctionTotals {
        std::int64_t count = 0;
        std::int64_t cyclomatic = 0;
        int max_cyclomatic = 0;
    } function_totals;
};

/// Sets report.function_totals from report.functions.
void summarize_functions(FileReport& report);

boost::json::object to_json(const LineCounts& lines);
boost::json::object to_json(const HalsteadCounts& halstead);
boost::json::object to_json(const FunctionMetrics& function);
boost::json::object to_json(const FileReport& report);
/// The inverse of to_json(FileReport), for the cache. Throws std::exception on a malformed object.
FileReport file_report_from_json(const boost::json::object& json);

}  // namespace mcpkit::analyze
