// The reference tools' quirks analyze reproduces on purpose, each on the smallest input that shows
// it: cloc's line filters, radon's raw metrics, class figure, total complexity and Halstead keys,
// pmccabe's blindness to #if conditions. The expected numbers were taken from running cloc 1.96,
// radon 5.1 and pmccabe on these very inputs; tests/agreement checks the same on whole trees.

#include "analyze/metrics/FileAnalyzer.hpp"
#include "analyze/metrics/LineCounter.hpp"
#include "analyze/metrics/PythonRawLines.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace mcpkit::analyze;

namespace {

struct Split {
    std::int64_t blank, comment, code;
};

void expect_lines(std::string_view source, Language language, Split expected) {
    LineCounts counts = count_lines(source, language);
    EXPECT_EQ(counts.blank, expected.blank) << source;
    EXPECT_EQ(counts.comment, expected.comment) << source;
    EXPECT_EQ(counts.code, expected.code) << source;
    EXPECT_EQ(counts.total, expected.blank + expected.comment + expected.code) << source;
}

}  // namespace

TEST(ClocLineRules, PythonTripleQuotesAreCommentsWhereverTheyAre) {
    // cloc: "blank 0, comment 6, code 5". Line by line: code, docstring, code (the assignment's
    // first line), comment (its last), code (`r` is left when the raw string goes), two `#` lines,
    // code with an inline comment, a line holding `/*`, a backslash line (code) and the blank
    // after it (kept by the continuation, then dropped with the comments: a comment).
    expect_lines("x = 1\n\"\"\"doc\"\"\"\ny = \"\"\"a\nb\"\"\"\nr\"\"\"z\"\"\"\n#c\n  # d\nz = 2 # e\n/* q */\n\\\n\n",
                 Language::python, {0, 6, 5});
}

TEST(ClocLineRules, APythonScriptsShebangIsCode) {
    expect_lines("#!/usr/bin/env python3\n# a comment\nx = 1\n", Language::python, {0, 1, 2});
}

TEST(ClocLineRules, CCommentsIgnoreStringsAndABlockCommentJoinsTheLinesAroundIt) {
    // cloc: "blank 1, comment 1, code 4": the comment between `int w;` and `int v;` makes them one
    // code line, and the other line of it a comment.
    expect_lines("int y; // c\nint x;\n/* a */ int z;\nint w; /* b\n c */ int v;\n  \n", Language::c, {1, 1, 4});
    // A comment opener inside a string still opens a comment: here it runs to the `*/` two lines
    // down, and `int a;` with it.
    expect_lines("char *s = \"/*\";\nint a;\n/* */\n", Language::c, {0, 2, 1});
}

TEST(ClocLineRules, JavaHidesAStringEndingInACommentOpener) {
    expect_lines("class A {\n  String s = \"src/*\";\n  int x;\n}\n", Language::java, {0, 0, 4});
}

TEST(ClocLineRules, HostileLinesAreCountedInOnePass) {
    // A Java line of 200,000 characters between a quote and `/* */`: a regex with a lazy run
    // would recurse once per character and overflow the stack.
    std::string java = "s = \"" + std::string(200'000, 'a') + "\"; /* x */\nint y;\n";
    expect_lines(java, Language::java, {0, 0, 2});
    // 300,000 triple quotes on one Python line: each toggles a docstring, without rescanning.
    std::string python = "x = 1\n";
    for (int i = 0; i < 100'000; ++i) python += R"(''''''""")";
    python += "\n";
    LineCounts counts = count_lines(python, Language::python);
    EXPECT_EQ(counts.total, 2);
    EXPECT_EQ(counts.code + counts.comment, 2);
}

TEST(ClocLineRules, NoFileHasFewerThanNoCommentLines) {
    // cloc 1.96 says "comment -1, code 3" for these two lines: the backslash joins the lines, the
    // comment's removal splits them again, and the blank it leaves is kept by the continuation.
    // Code is capped at the non-blank lines.
    expect_lines("x \\/**/\ny\n", Language::c, {0, 0, 2});
    FileReport report = analyze_source("a.c", "x \\/**/\ny\n", Language::c);
    EXPECT_TRUE(std::isfinite(report.maintainability_index));
}

TEST(ClocLineRules, WindowsLineEndingsAndAByteOrderMarkChangeNothing) {
    expect_lines("\xEF\xBB\xBFint a;\r\n\r\n// c\r\n", Language::c, {1, 1, 1});
}

TEST(RadonRawLines, LogicalLinesCountAColonThatIsNotTheLastToken) {
    PythonRawLines raw = count_python_raw_lines("if x:\n    pass\nif y: pass\nd = {'a': 1}\nf = lambda q: q\n"
                                                "a = 1; b = 2\nx[1:]; y\n# only a comment\n");
    // 1 + 1 + 2 + 2 + 2 + 2 + (x[1:] before a `;`: radon compares with the second-to-last token: 1) + 1 + 0
    EXPECT_EQ(raw.lloc, 1 + 1 + 2 + 2 + 2 + 2 + 1 + 1);
    EXPECT_EQ(raw.comments, 1);
    EXPECT_EQ(raw.single_comments, 1);
    EXPECT_TRUE(raw.tokenized);
}

TEST(RadonRawLines, MultiCharacterOperatorsAreOneTokenAndAWalrusIsNoColon) {
    // radon raw 5.1 on the same file: lloc 12.
    PythonRawLines raw = count_python_raw_lines("x = (y := 5)\ndef f(a) -> int: return a\na //= 2; b **= 3\n"
                                                "c = a if a >= b else b\nd = [1, 2][:-1]\ne = ...\n"
                                                "x <<= 1; y >>= 1\nz = x != y\n");
    EXPECT_EQ(raw.lloc, 1 + 2 + 2 + 1 + 2 + 1 + 2 + 1);
    EXPECT_EQ(raw.sloc, 8);
    EXPECT_TRUE(raw.tokenized);
}

TEST(RadonRawLines, AStringStatementIsADocstringAndInlineCommentsCount) {
    PythonRawLines raw = count_python_raw_lines("#!/usr/bin/env python3\n\"\"\"Module.\n\nMore.\n\"\"\"\n"
                                                "x = (1,  # one\n     2)\n'single'\n");
    EXPECT_EQ(raw.comments, 2) << "the shebang and the inline comment";
    EXPECT_EQ(raw.multi, 3) << "non-empty lines of the multi-line docstring";
    EXPECT_EQ(raw.blank, 1) << "the empty line inside it";
    EXPECT_EQ(raw.single_comments, 2) << "the shebang line and the one-line string";
    EXPECT_EQ(raw.sloc, 2);
    EXPECT_EQ(raw.lloc, 1 + 1 + 1);
}

TEST(RadonRawLines, AByteOrderMarkIsNotCode) {
    // radon raw stops with a SyntaxError here; CPython reads past the mark, and so do we.
    EXPECT_EQ(count_python_raw_lines("\xEF\xBB\xBF").lloc, 0);
    EXPECT_EQ(count_python_raw_lines("\xEF\xBB\xBF").sloc, 0);
    // radon raw on the same text without the mark: loc 3, lloc 2, sloc 1, comments 1, multi 0,
    // single_comments 2.
    PythonRawLines marked = count_python_raw_lines("\xEF\xBB\xBF\"\"\"doc\"\"\"\n# c\nx = 1\n");
    EXPECT_EQ(marked.loc, 3);
    EXPECT_EQ(marked.lloc, 2);
    EXPECT_EQ(marked.sloc, 1);
    EXPECT_EQ(marked.comments, 1);
    EXPECT_EQ(marked.multi, 0);
    EXPECT_EQ(marked.single_comments, 2);
}

TEST(RadonRawLines, AnUnterminatedStringIsReported) {
    EXPECT_FALSE(count_python_raw_lines("x = 'abc\ny = 1\n").tokenized);
    EXPECT_FALSE(count_python_raw_lines("x = (1,\n").tokenized);
}

TEST(RadonComplexity, AssertHidesItsConditionAndMatchCountsNothing) {
    const char* source = R"(def check(a, b):
    assert a and b
    match a:
        case 1:
            return 1
        case x if x > 2 or b:
            return 2
        case _:
            return 3
)";
    FileReport report = analyze_source("check.py", source, Language::python);
    ASSERT_EQ(report.functions.size(), 1u);
    // radon: 1 + assert; the `and` inside the assert, the cases and the guard's `if` add nothing,
    // the guard's `or` adds one.
    EXPECT_EQ(report.functions[0].cyclomatic, 3);
}

TEST(RadonComplexity, AClassIsItsComplexityAveragedOverItsMethods) {
    const char* source = R"(class K:
    flag = 1 if True else 0
    def a(self, x):
        if x: return 1
        return 2
    def b(self, y):
        for i in y: pass
        while y: pass
        return 3
    def c(self): pass

def outer():
    def inner(z):
        if z: return 1
    class Local:
        def m(self):
            if self: pass
    return 0 if inner else 1
)";
    FileReport report = analyze_source("k.py", source, Language::python);
    ASSERT_FALSE(report.types.empty());
    EXPECT_EQ(report.types[0].name, "K");
    // real = 1 + 1 (the class-body ternary) + 2 + 3 + 1 = 8; 8 / 3 methods = 2, plus 1: 3.
    EXPECT_EQ(report.types[0].cyclomatic, 3);
    // Total (mi's input): 1 + 1 (class body) + K's methods 2 + 3 + 1 + outer's own 1 (its ternary);
    // inner's and Local.m's decisions are in no total.
    EXPECT_EQ(report.cyclomatic_total, 1 + 1 + 6 + 1);
}

TEST(RadonHalstead, OperandsAreKeyedByFunctionAndValue) {
    const char* source = R"(def f(a):
    return a + 1 + 1.0 + True + self.a + 'a' + "a"

def g(a):
    return a + 1
)";
    FileReport report = analyze_source("h.py", source, Language::python);
    // f: `a`, `self.a`, 'a' and "a" are one operand; 1, 1.0 and True are one; every partial sum
    // is a new compound operand (5 of them). g's `a` and 1 are new: another context.
    EXPECT_EQ(report.halstead.distinct_operators, 1);
    EXPECT_EQ(report.halstead.total_operators, 7);
    EXPECT_EQ(report.halstead.distinct_operands, 2 + 5 + 2);
    EXPECT_EQ(report.halstead.total_operands, 14);
}

TEST(PmccabeComplexity, AnIfConditionIsNotADecision) {
    const char* source = "void *f() {\n#if defined(A) && (B >= 2)\n    x();\n#elif C || D\n    y();\n#endif\n"
                         "    return a && b ? 0 : 0;\n}\n";
    FileReport report = analyze_source("p.c", source, Language::c);
    ASSERT_EQ(report.functions.size(), 1u);
    EXPECT_EQ(report.functions[0].cyclomatic, 3) << "the && and the ?: of the return only";
}
