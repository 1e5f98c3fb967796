// Every navigation question in every language: the same little program (a type with a method, a
// helper the method calls, a caller, a subtype, an unused function, and a second definition of
// the method's name elsewhere, so that a bare name is ambiguous) written in each of the eight
// languages, and the same answers expected from each.

#include "NavigationFixtures.hpp"

#include <boost/json.hpp>

using namespace navigation_test;
namespace json = boost::json;

namespace {

struct Program {
    const char* language;
    std::vector<std::pair<std::string, std::string>> files;
    std::string method;      ///< the method's qualified name
    std::string helper;      ///< the helper's qualified name
    std::string caller;      ///< the qualified name of what calls the method
    std::string base_type;   ///< a type with a subtype, empty where the language has none
    std::string subtype;     ///< its subtype's name
    std::string unused;      ///< the unused function's name
};

std::vector<Program> programs() {
    return {
        {"c",
         {{"shape.h", "struct shape { int sides; };\nint shape_area(struct shape *s);\n"},
          {"shape.c", "#include \"shape.h\"\nstatic int helper(int n) { return n * 2; }\n"
                      "int shape_area(struct shape *s) { return helper(s->sides); }\nstatic int unused_one(void) { return 0; }\n"},
          {"main.c", "#include \"shape.h\"\nint run(void) { struct shape s = {3}; return shape_area(&s); }\n"},
          {"other.c", "static int shape_area(int x) { return x; }\n"}},
         "shape.shape_area", "shape.helper", "main.run", "", "", "unused_one"},
        {"cpp",
         {{"shape.hpp", "class Shape {\npublic:\n    virtual int area() const { return helper(1); }\n    static int helper(int n) { return n; }\n};\n"
                        "class Square : public Shape {};\n"},
          {"main.cpp", "#include \"shape.hpp\"\nint run() { Shape s; return s.area(); }\nstatic int unused_one() { return 0; }\n"},
          {"other.cpp", "struct Other { int area() const { return 0; } };\n"}},
         "Shape.area", "Shape.helper", "run", "Shape", "Square", "unused_one"},
        {"python",
         {{"shape.py", "class Shape:\n    def area(self):\n        return helper(1)\n\n\nclass Square(Shape):\n    pass\n\n\n"
                       "def helper(n):\n    return n\n\n\ndef _unused_one():\n    return 0\n"},
          {"main.py", "from shape import Shape\n\n\ndef run():\n    s = Shape()\n    return s.area()\n"},
          {"other.py", "class Other:\n    def area(self):\n        return 0\n"}},
         "shape.Shape.area", "shape.helper", "main.run", "Shape", "Square", "_unused_one"},
        {"javascript",
         {{"shape.js", "export class Shape {\n  area() { return helper(1); }\n}\nexport class Square extends Shape {}\n"
                       "function helper(n) { return n; }\nfunction unusedOne() { return 0; }\n"},
          {"main.js", "import { Shape } from \"./shape.js\";\nexport function run() { const s = new Shape(); return s.area(); }\n"},
          {"other.js", "export class Other { area() { return 0; } }\n"}},
         "shape.Shape.area", "shape.helper", "main.run", "Shape", "Square", "unusedOne"},
        {"typescript",
         {{"shape.ts", "export interface Sized { area(): number; }\nexport class Shape implements Sized {\n  area(): number { return helper(1); }\n}\n"
                       "export class Square extends Shape {}\nfunction helper(n: number): number { return n; }\nfunction unusedOne(): number { return 0; }\n"},
          {"main.ts", "import { Shape } from \"./shape\";\nexport function run(): number { const s: Shape = new Shape(); return s.area(); }\n"},
          {"other.ts", "export class Other { area(): number { return 0; } }\n"}},
         "shape.Shape.area", "shape.helper", "main.run", "Shape", "Square", "unusedOne"},
        {"go",
         {{"shape/shape.go", "package shape\n\ntype Shape struct{ Sides int }\n\nfunc (s *Shape) Area() int { return helper(s.Sides) }\n\n"
                             "func helper(n int) int { return n }\n\nfunc unusedOne() int { return 0 }\n"},
          {"main/main.go", "package main\n\nimport \"example.com/m/shape\"\n\nfunc run() int {\n\ts := &shape.Shape{Sides: 3}\n\treturn s.Area()\n}\n"},
          {"other/other.go", "package other\n\ntype Other struct{}\n\nfunc (o Other) Area() int { return 0 }\n"}},
         "shape.Shape.Area", "shape.helper", "main.run", "", "", "unusedOne"},
        {"rust",
         {{"shape.rs", "pub trait Sized2 { fn size(&self) -> i32; }\npub struct Shape { pub sides: i32 }\n"
                       "impl Shape {\n    pub fn area(&self) -> i32 { helper(self.sides) }\n}\nimpl Sized2 for Shape { fn size(&self) -> i32 { 0 } }\n"
                       "fn helper(n: i32) -> i32 { n }\nfn unused_one() -> i32 { 0 }\n"},
          {"main.rs", "use crate::shape::Shape;\nfn run() -> i32 { let s = Shape { sides: 3 }; s.area() }\n"},
          {"other.rs", "pub struct Other;\nimpl Other { pub fn area(&self) -> i32 { 0 } }\n"}},
         "shape.Shape.area", "shape.helper", "main.run", "Sized2", "Shape", "unused_one"},
        {"java",
         {{"shapes/Shape.java", "package shapes;\npublic class Shape {\n    public int area() { return helper(1); }\n"
                                "    private static int helper(int n) { return n; }\n    private static int unusedOne() { return 0; }\n}\n"},
          {"shapes/Square.java", "package shapes;\npublic class Square extends Shape {}\n"},
          {"app/Main.java", "package app;\nimport shapes.Shape;\nclass Main {\n    int run() { Shape s = new Shape(); return s.area(); }\n}\n"},
          {"other/Other.java", "package other;\nclass Other { int area() { return 0; } }\n"}},
         "shapes.Shape.area", "shapes.Shape.helper", "app.Main.run", "Shape", "Square", "unusedOne"},
    };
}

std::vector<std::string> names(const json::array& items, const char* key = "qualifiedName") {
    std::vector<std::string> out;
    for (const json::value& item : items) out.emplace_back(item.at(key).as_string());
    return out;
}

class ToolsPerLanguage : public testing::TestWithParam<Program> {};

}  // namespace

TEST_P(ToolsPerLanguage, AnswerTheSameQuestions) {
    const Program& program = GetParam();
    TempTree tree;
    for (const auto& [path, text] : program.files) tree.write(path, text);
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    SCOPED_TRACE(program.language);

    // find-symbol: the method by its qualified name, once.
    NavigationAnswer found = find_symbol(context, {program.method, std::nullopt, "", 50});
    ASSERT_EQ(names(found.data.at("symbols").as_array()), std::vector<std::string>{program.method}) << found.text;

    // The method's bare name is defined twice (or more): the answer asks which.
    std::string bare = program.method.substr(program.method.rfind('.') + 1);
    NavigationAnswer ambiguous = find_references(context, {bare, {}, true, 0, 100});
    EXPECT_TRUE(ambiguous.data.contains("ambiguous")) << ambiguous.text;

    // find-references: the caller's call, certain (the receiver's type is declared or constructed).
    NavigationAnswer uses = find_references(context, {program.method, {ReferenceKind::call}, true, 0, 100});
    const json::array& references = uses.data.at("references").as_array();
    ASSERT_EQ(references.size(), 1u) << uses.text;
    EXPECT_TRUE(references[0].at("certain").as_bool()) << uses.text;
    EXPECT_EQ(references[0].at("enclosing").at("qualifiedName").as_string(), program.caller);

    // get-call-hierarchy: helper ← method ← caller, and the method's callees include helper.
    NavigationAnswer callers = call_hierarchy(context, {program.helper, CallDirection::callers, 2, 200});
    const json::array& level = callers.data.at("children").as_array();
    ASSERT_EQ(names(level), std::vector<std::string>{program.method}) << callers.text;
    EXPECT_EQ(names(level[0].at("children").as_array()), std::vector<std::string>{program.caller}) << callers.text;
    NavigationAnswer callees = call_hierarchy(context, {program.method, CallDirection::callees, 1, 200});
    EXPECT_TRUE(contains(names(callees.data.at("children").as_array(), "name"), program.helper.substr(program.helper.rfind('.') + 1)))
        << callees.text;

    // get-type-hierarchy, where the language has subtypes.
    if (!program.base_type.empty()) {
        NavigationAnswer subtypes = type_hierarchy(context, {program.base_type, TypeDirection::subtypes, 1});
        EXPECT_TRUE(contains(names(subtypes.data.at("children").as_array(), "name"), program.subtype)) << subtypes.text;
    }

    // find-dead-code: the unused function, and not the helper.
    DeadCodeSearch dead_search;
    dead_search.include_exported = true;
    NavigationAnswer dead = find_dead_code(context, dead_search);
    std::vector<std::string> unused = names(dead.data.at("definitions").as_array(), "name");
    EXPECT_TRUE(contains(unused, program.unused)) << dead.text;
    EXPECT_FALSE(contains(unused, program.helper.substr(program.helper.rfind('.') + 1))) << dead.text;

    // get-change-impact from a diff of the helper's file: the helper changed, the method and the caller reached.
    std::string helper_file;
    std::uint32_t helper_line = 0;
    for (SymbolId id : build.index.definitions_named(program.helper.substr(program.helper.rfind('.') + 1))) {
        if (build.index.qualified_name(id) != program.helper) continue;
        helper_line = build.index.definition(id).line;
        helper_file = build.index.file(id.file)->path;
    }
    ASSERT_GT(helper_line, 0u);
    ImpactSearch impact_search;
    impact_search.diff = "--- a/" + helper_file + "\n+++ b/" + helper_file + "\n@@ -" + std::to_string(helper_line) + " +" +
                         std::to_string(helper_line) + " @@\n";
    NavigationAnswer impact = change_impact(context, impact_search);
    EXPECT_TRUE(contains(names(impact.data.at("changed").as_array()), program.helper)) << impact.text;
    std::vector<std::string> reached = names(impact.data.at("impacted").as_array());
    EXPECT_TRUE(contains(reached, program.method)) << impact.text;
    EXPECT_TRUE(contains(reached, program.caller)) << impact.text;
}

INSTANTIATE_TEST_SUITE_P(EightLanguages, ToolsPerLanguage, testing::ValuesIn(programs()),
                         [](const testing::TestParamInfo<Program>& info) { return std::string(info.param.language); });
