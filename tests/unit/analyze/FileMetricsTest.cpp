// Per-file metrics on small programs whose right answers are known by hand (radon's and pmccabe's
// rules), and the grammar tables checked against the grammars themselves.

#include "analyze/metrics/FileAnalyzer.hpp"
#include "analyze/syntax/NodeRoles.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using namespace mcpkit::analyze;

namespace {

const FunctionMetrics& function_named(const FileReport& report, std::string_view name) {
    for (const FunctionMetrics& function : report.functions)
        if (function.name == name) return function;
    throw std::runtime_error("no function " + std::string(name));
}

bool has_finding(const FileReport& report, std::string_view rule, int line) {
    return std::any_of(report.findings.begin(), report.findings.end(),
                       [&](const Finding& finding) { return finding.rule == rule && finding.line == line; });
}

}  // namespace

TEST(NodeRoles, EveryNodeTypeTheTablesNameExistsInItsGrammar) {
    for (Language language : all_languages) {
        const TSLanguage* grammar_language = grammar(language);
        ASSERT_EQ(ts_language_version(grammar_language), 14u) << name(language);
        for (std::string_view type : NodeRoles::names_used(language)) {
            TSSymbol symbol = ts_language_symbol_for_name(grammar_language, type.data(),
                                                          static_cast<std::uint32_t>(type.size()), true);
            EXPECT_NE(symbol, 0) << name(language) << " has no node type " << type;
        }
    }
}

TEST(FileMetrics, PythonComplexityFollowsRadon) {
    const char* source = R"(import os
from . import sibling

class Shape:
    """A shape."""

    def area(self, kind):
        if kind == "square" and self.side:   # if +1, and +1
            return self.side ** 2
        elif kind == "circle":               # elif +1
            return 3.14 * self.r ** 2
        for x in range(3):                   # for +1, else +1
            pass
        else:
            pass
        try:
            return [v for v in self.values if v]   # comprehension +1, its if +1
        except ValueError:                   # handler +1
            return None
        except KeyError:                     # handler +1
            return 0

def plain():
    return 1 if os.sep else 2                # ternary +1
)";
    FileReport report = analyze_source("shape.py", source, Language::python);
    EXPECT_EQ(function_named(report, "Shape.area").cyclomatic, 10);
    EXPECT_EQ(function_named(report, "Shape.area").kind, "method");
    EXPECT_EQ(function_named(report, "plain").cyclomatic, 2);
    EXPECT_EQ(function_named(report, "Shape.area").start_line, 7);
    EXPECT_EQ(function_named(report, "Shape.area").end_line, 21);
    ASSERT_EQ(report.types.size(), 1u);
    EXPECT_EQ(report.types[0].name, "Shape");
    ASSERT_EQ(report.imports.size(), 2u);
    EXPECT_EQ(report.imports[0].target, "os");
    EXPECT_EQ(report.imports[1].target, ".sibling");
    EXPECT_EQ(report.parse_errors, 0);
}

// Radon counts `a and b and c` as one `and` with three operands. A chain of 200,000 nests as
// deep in the syntax tree and once overflowed the stack of the code that counted it.
TEST(FileMetrics, ALongBooleanChainIsOneOperatorWithEveryOperand) {
    std::string source = "x = a";
    for (int i = 1; i < 200000; ++i) source += i % 2 ? " and b" : " and a";
    source += "\n";
    FileReport report = analyze_source("chain.py", source, Language::python);
    EXPECT_EQ(report.parse_errors, 0);
    // As radon counts: one `and` (an assignment is no operator) over its 200,000 values, a and b.
    EXPECT_EQ(report.halstead.total_operators, 1);
    EXPECT_EQ(report.halstead.total_operands, 200000);
    EXPECT_EQ(report.halstead.distinct_operands, 2);
}

TEST(FileMetrics, CComplexityFollowsPmccabesTraditionalCount) {
    const char* source = R"(#include <stdio.h>
#include "local.h"
/* a block
   comment */
int classify(int x, int y) {
    if (x > 0 && y > 0) {          /* if +1, && +1 */
        return 1;
    } else if (x < 0 || y < 0) {   /* if +1, || +1 */
        return -1;
    }
    switch (x) {                   /* each case +1, default nothing */
    case 1: break;
    case 2: break;
    default: break;
    }
    while (x--) {}                 /* +1 */
    return x ? 2 : 3;              /* +1 */
}
)";
    FileReport report = analyze_source("classify.c", source, Language::c);
    const FunctionMetrics& classify = function_named(report, "classify");
    EXPECT_EQ(classify.cyclomatic, 9);
    EXPECT_EQ(classify.parameters, 2);
    EXPECT_EQ(classify.max_nesting, 1) << "an else-if chain stays at one level";
    EXPECT_EQ(report.lines.total, 18);
    EXPECT_EQ(report.lines.comment, 2) << "the two lines of the block comment";
    EXPECT_EQ(report.lines.code, 16);
    ASSERT_EQ(report.imports.size(), 2u);
    EXPECT_TRUE(report.imports[0].system);
    EXPECT_EQ(report.imports[1].target, "local.h");
}

TEST(FileMetrics, CognitiveComplexityChargesNesting) {
    // SonarSource's example shape: if (+1), nested for (+2), nested if (+3), else (+1), && run (+1).
    const char* source = R"(function f(a, b) {
  if (a) {
    for (const x of b) {
      if (x && a && b) {
        return x;
      } else {
        continue;
      }
    }
  }
  return null;
}
)";
    FileReport report = analyze_source("f.js", source, Language::javascript);
    const FunctionMetrics& f = function_named(report, "f");
    EXPECT_EQ(f.cognitive, 8);
    EXPECT_EQ(f.max_nesting, 3);
    EXPECT_EQ(f.cyclomatic, 6);
}

TEST(FileMetrics, MethodsAreNamedAfterTheirTypeInEveryLanguage) {
    EXPECT_EQ(analyze_source("a.go", "package a\ntype S struct{}\nfunc (s *S) Run() {}\n", Language::go).functions[0].name,
              "S.Run");
    EXPECT_EQ(analyze_source("a.rs", "struct S;\nimpl S { fn run(&self) {} }\n", Language::rust).functions[0].name,
              "S::run");
    EXPECT_EQ(analyze_source("A.java", "class A { void run() {} }\n", Language::java).functions[0].name, "A.run");
    EXPECT_EQ(analyze_source("a.cpp", "struct A { void run() {} };\nvoid A2::go() {}\n", Language::cpp).functions[0].name,
              "A::run");
    EXPECT_EQ(analyze_source("a.ts", "class A { run(): void {} }\nconst g = () => 1;\n", Language::typescript)
                  .functions[1]
                  .name,
              "g");
}

TEST(FileMetrics, CallbacksAreNamedAfterTheCallTheyArePassedTo) {
    FileReport js = analyze_source(
        "a.test.js", "describe('parser', () => {\n  test(\"reads empty input\", async () => {});\n  xs.map(function (x) { return x; });\n"
        "  it(`plain template`, () => {});\n  it(`${name} in a template`, () => {});\n});\n",
        Language::javascript);
    ASSERT_EQ(js.functions.size(), 5U);
    EXPECT_EQ(js.functions[0].name, "describe(\"parser\") callback");
    EXPECT_EQ(js.functions[1].name, "test(\"reads empty input\") callback");
    EXPECT_EQ(js.functions[2].name, "xs.map callback");
    EXPECT_EQ(js.functions[3].name, "it(\"plain template\") callback");
    EXPECT_EQ(js.functions[4].name, "it callback");  // a label with substitutions is not known until it runs
    FileReport go = analyze_source("a.go", "package a\nfunc f() { http.HandleFunc(\"/x\", func(w int) {}) }\n", Language::go);
    EXPECT_EQ(go.functions.back().name, "http.HandleFunc(\"/x\") callback");
    FileReport rust = analyze_source("a.rs", "fn f() { v.iter().for_each(|x| { g(x); }); }\n", Language::rust);
    EXPECT_EQ(rust.functions.back().name, "v.iter().for_each callback");
    FileReport java = analyze_source("A.java", "class A { void f() { list.forEach(x -> { g(x); }); } }\n", Language::java);
    EXPECT_EQ(java.functions.back().name, "forEach callback");
}

TEST(FileMetrics, FindingsPointAtTheirLine) {
    std::string source = "def long_one(x):\n";
    for (int i = 0; i < 12; ++i) source += "    if x == " + std::to_string(i) + ":\n        return " + std::to_string(i) + "\n";
    source += "    # TODO: shorten this\n    return -1\n\ndef broken(:\n    pass\n";
    FileReport report = analyze_source("long.py", source, Language::python);
    EXPECT_TRUE(has_finding(report, "high-complexity", 1));
    EXPECT_TRUE(has_finding(report, "todo", 26));
    EXPECT_GT(report.parse_errors, 0);
    EXPECT_TRUE(std::any_of(report.findings.begin(), report.findings.end(),
                            [](const Finding& finding) { return finding.rule == "parse-error" && finding.line >= 28; }));
}
