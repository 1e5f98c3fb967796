// The questions the tools answer, on small trees: names resolved through imports, receivers and
// packages; ambiguous names answered with their candidates; hierarchies; dead code.

#include "NavigationFixtures.hpp"

#include <boost/json.hpp>

using namespace navigation_test;
namespace json = boost::json;

namespace {

std::vector<std::string> locations(const json::array& items) {
    std::vector<std::string> out;
    for (const json::value& item : items) out.emplace_back(item.at("location").as_string());
    return out;
}

// A Go module of two packages, both defining Helper.
void write_go_module(const TempTree& tree) {
    tree.write("go.mod", "module example.com/m\n");
    tree.write("a/a.go", R"(package a

// Helper helps.
func Helper() int { return 1 }

type T struct{}

func (t *T) Run() int { return Helper() }
)");
    tree.write("b/b.go", R"(package b

import "example.com/m/a"

func Helper() int { return 2 }

func Use() int {
	t := a.T{}
	return a.Helper() + Helper() + t.Run()
}
)");
}

}  // namespace

TEST(NavigationQueries, ImportedNamesResolveToTheirPackage) {
    TempTree tree;
    write_go_module(tree);
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};

    NavigationAnswer answer = find_references(context, {"a.Helper", {}, true, 0, 100});
    ASSERT_FALSE(answer.data.contains("ambiguous")) << answer.text;
    auto found = locations(answer.data.at("references").as_array());
    EXPECT_EQ(found, (std::vector<std::string>{"a/a.go:8:32", "b/b.go:9:11"})) << answer.text;
    for (const json::value& reference : answer.data.at("references").as_array()) EXPECT_TRUE(reference.at("certain").as_bool());

    answer = find_references(context, {"b.Helper", {}, true, 0, 100});
    EXPECT_EQ(locations(answer.data.at("references").as_array()), (std::vector<std::string>{"b/b.go:9:22"})) << answer.text;
    // t := a.T{}: t.Run() is T's Run.
    answer = find_references(context, {"T.Run", {}, true, 0, 100});
    EXPECT_EQ(locations(answer.data.at("references").as_array()), (std::vector<std::string>{"b/b.go:9:35"})) << answer.text;
}

TEST(NavigationQueries, AnAmbiguousNameListsItsCandidatesInsteadOfGuessing) {
    TempTree tree;
    write_go_module(tree);
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    NavigationAnswer answer = find_references(context, {"Helper", {}, true, 0, 100});
    ASSERT_TRUE(answer.data.contains("ambiguous")) << answer.text;
    EXPECT_EQ(locations(answer.data.at("candidates").as_array()), (std::vector<std::string>{"a/a.go:4:6", "b/b.go:5:6"}));
    EXPECT_NE(answer.text.find("qualified name"), std::string::npos);
    // A place names one of them.
    answer = find_references(context, {"b/b.go:5:6", {}, true, 0, 100});
    EXPECT_FALSE(answer.data.contains("ambiguous"));
    EXPECT_EQ(answer.data.at("target").at("qualifiedName").as_string(), "b.Helper");
}

TEST(NavigationQueries, UsesThroughUnknownTypesAreUncertainAndCanBeLeftOut) {
    TempTree tree;
    tree.write("files.py", "class File:\n    def close(self):\n        pass\n\nclass Socket:\n    def close(self):\n        pass\n\n"
                           "def shut(thing):\n    thing.close()\n\ndef shut_file():\n    f = File()\n    f.close()\n");
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    NavigationAnswer answer = find_references(context, {"File.close", {}, true, 0, 100});
    const json::array& uses = answer.data.at("references").as_array();
    ASSERT_EQ(uses.size(), 2u) << answer.text;
    EXPECT_EQ(uses[0].at("location").as_string(), "files.py:10:11");
    EXPECT_FALSE(uses[0].at("certain").as_bool());  // thing may be a File or a Socket
    EXPECT_EQ(uses[0].at("candidates").to_number<std::int64_t>(), 2);
    EXPECT_TRUE(uses[1].at("certain").as_bool());  // f = File()
    EXPECT_EQ(answer.data.at("certain").to_number<std::int64_t>(), 1);

    answer = find_references(context, {"Socket.close", {}, false, 0, 100});
    EXPECT_TRUE(answer.data.at("references").as_array().empty()) << answer.text;
}

TEST(NavigationQueries, FindSymbolTakesNamesQualifiedNamesAndPatterns) {
    TempTree tree;
    write_go_module(tree);
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    NavigationAnswer answer = find_symbol(context, {"a.T.Run", std::nullopt, "", 50});
    ASSERT_EQ(answer.data.at("total").to_number<std::int64_t>(), 1) << answer.text;
    const json::object& run = answer.data.at("symbols").as_array()[0].as_object();
    EXPECT_EQ(run.at("kind").as_string(), "method");
    EXPECT_EQ(run.at("container").as_string(), "T");
    EXPECT_EQ(run.at("signature").as_string(), "func (t *T) Run() int");

    answer = find_symbol(context, {"help*", std::nullopt, "", 50});  // lower case: any case
    EXPECT_EQ(answer.data.at("total").to_number<std::int64_t>(), 2);
    EXPECT_EQ(answer.data.at("symbols").as_array()[0].at("doc").as_string(), "Helper helps.");
    answer = find_symbol(context, {"*", SymbolKind::struct_type, "", 50});
    EXPECT_EQ(answer.data.at("total").to_number<std::int64_t>(), 1);
    answer = find_symbol(context, {"Helper", std::nullopt, "b", 50});
    EXPECT_EQ(locations(answer.data.at("symbols").as_array()), (std::vector<std::string>{"b/b.go:5:6"}));
    // A near miss: no exact name, the names that contain it.
    answer = find_symbol(context, {"elpe", std::nullopt, "", 50});
    EXPECT_EQ(answer.data.at("total").to_number<std::int64_t>(), 2);
    EXPECT_THROW(find_references(context, {"Nowhere", {}, true, 0, 100}), std::invalid_argument);
}

TEST(NavigationQueries, ReferencesArePagedAndFilteredByKind) {
    TempTree tree;
    std::string source = "def target():\n    pass\n\nvalue = target\n";
    for (int i = 0; i < 7; ++i) source += "def caller" + std::to_string(i) + "():\n    target()\n";
    tree.write("m.py", source);
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    NavigationAnswer page = find_references(context, {"target", {ReferenceKind::call}, true, 2, 3});
    EXPECT_EQ(page.data.at("total").to_number<std::int64_t>(), 7);
    EXPECT_EQ(locations(page.data.at("references").as_array()), (std::vector<std::string>{"m.py:10:5", "m.py:12:5", "m.py:14:5"}));
    EXPECT_EQ(page.data.at("nextOffset").to_number<std::int64_t>(), 5);
    const json::object& first = page.data.at("references").as_array()[0].as_object();
    EXPECT_EQ(first.at("text").as_string(), "target()");
    EXPECT_EQ(first.at("enclosing").at("qualifiedName").as_string(), "m.caller2");
    NavigationAnswer reads = find_references(context, {"target", {ReferenceKind::read}, true, 0, 100});
    EXPECT_EQ(locations(reads.data.at("references").as_array()), (std::vector<std::string>{"m.py:4:9"}));
}

TEST(NavigationQueries, CallHierarchyGoesBothWaysToADepth) {
    TempTree tree;
    tree.write("calls.c", "#include <stdio.h>\nstatic int leaf(int x) { return x; }\nstatic int middle(int x) { return leaf(x) + leaf(1); }\n"
                          "int top(void) { printf(\"%d\", middle(2)); return middle(3); }\n");
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    NavigationAnswer callers = call_hierarchy(context, {"leaf", CallDirection::callers, 2, 200});
    const json::array& level1 = callers.data.at("children").as_array();
    ASSERT_EQ(level1.size(), 1u) << callers.text;
    EXPECT_EQ(level1[0].at("qualifiedName").as_string(), "calls.middle");
    EXPECT_EQ(level1[0].at("calls").as_array().size(), 2u);
    ASSERT_EQ(level1[0].at("children").as_array().size(), 1u);
    EXPECT_EQ(level1[0].at("children").as_array()[0].at("qualifiedName").as_string(), "calls.top");

    NavigationAnswer callees = call_hierarchy(context, {"top", CallDirection::callees, 1, 200});
    std::vector<std::string> names;
    for (const json::value& node : callees.data.at("children").as_array()) names.emplace_back(node.at("name").as_string());
    EXPECT_EQ(names, (std::vector<std::string>{"middle", "printf"})) << callees.text;
    EXPECT_FALSE(callees.data.at("children").as_array()[1].at("defined").as_bool());  // printf is not in the tree
}

TEST(NavigationQueries, TypeHierarchiesAcrossLanguages) {
    TempTree tree;
    tree.write("Shapes.java", "interface Shape { double area(); }\nabstract class Base implements Shape {}\n"
                              "class Square extends Base { public double area() { return 1; } }\n");
    tree.write("io/io.go", "package io\n\ntype Reader interface {\n\tRead(p []byte) (int, error)\n}\n");
    tree.write("file/file.go", "package file\n\ntype File struct{}\n\nfunc (f *File) Read(p []byte) (int, error) { return 0, nil }\n"
                               "func (f *File) Close() error { return nil }\n\ntype Other struct{}\n");
    tree.write("shape.rs", "pub trait Draw {}\npub struct Canvas;\nimpl Draw for Canvas {}\n");
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};

    NavigationAnswer down = type_hierarchy(context, {"Shape", TypeDirection::subtypes, 3});
    const json::array& direct = down.data.at("children").as_array();
    ASSERT_EQ(direct.size(), 1u) << down.text;
    EXPECT_EQ(direct[0].at("name").as_string(), "Base");
    EXPECT_EQ(direct[0].at("relation").as_string(), "implements");
    EXPECT_EQ(direct[0].at("children").as_array()[0].at("name").as_string(), "Square");

    NavigationAnswer up = type_hierarchy(context, {"Square", TypeDirection::supertypes, 3});
    EXPECT_EQ(up.data.at("children").as_array()[0].at("children").as_array()[0].at("name").as_string(), "Shape") << up.text;

    // Go: File has Read, so it satisfies Reader; Other does not.
    NavigationAnswer readers = type_hierarchy(context, {"io.Reader", TypeDirection::subtypes, 1});
    ASSERT_EQ(readers.data.at("children").as_array().size(), 1u) << readers.text;
    EXPECT_EQ(readers.data.at("children").as_array()[0].at("qualifiedName").as_string(), "file.File");
    EXPECT_EQ(readers.data.at("children").as_array()[0].at("relation").as_string(), "implements (method set)");

    NavigationAnswer drawn = type_hierarchy(context, {"Draw", TypeDirection::subtypes, 1});
    ASSERT_EQ(drawn.data.at("children").as_array().size(), 1u) << drawn.text;
    EXPECT_EQ(drawn.data.at("children").as_array()[0].at("name").as_string(), "Canvas");
    EXPECT_THROW(type_hierarchy(context, {"Square.area", TypeDirection::subtypes, 1}), std::invalid_argument);
}

TEST(NavigationQueries, DeadCodeLeavesOutEntryPointsAndExportedNames) {
    TempTree tree;
    tree.write("main.go", "package main\n\nfunc main() { used() }\n\nfunc used() {}\n\nfunc unused() {}\n\n"
                          "func recursive() { recursive() }\n\nfunc Exported() {}\n");
    tree.write("main_test.go", "package main\n\nimport \"testing\"\n\nfunc TestUsed(t *testing.T) { used() }\n");
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    NavigationAnswer dead = find_dead_code(context, {});
    std::vector<std::string> names;
    for (const json::value& item : dead.data.at("definitions").as_array()) names.emplace_back(item.at("name").as_string());
    EXPECT_EQ(names, (std::vector<std::string>{"unused", "recursive"})) << dead.text;
    EXPECT_EQ(dead.data.at("exportedUnused").to_number<std::int64_t>(), 1);
    DeadCodeSearch with_exported;
    with_exported.include_exported = true;
    dead = find_dead_code(context, with_exported);
    EXPECT_EQ(dead.data.at("total").to_number<std::int64_t>(), 3);
}

TEST(NavigationQueries, ReplacingAFileUpdatesEveryLookup) {
    TempTree tree;
    tree.write("a.py", "def old():\n    pass\n");
    tree.write("b.py", "from a import old\nold()\n");
    IndexBuild build = tree.index();
    CodeIndex& index = build.index;
    EXPECT_EQ(index.definitions_named("old").size(), 1u);
    EXPECT_EQ(index.references_named("old").size(), 2u);
    index.replace(symbols_of("def new():\n    pass\n", Language::python, "a.py"));
    EXPECT_TRUE(index.definitions_named("old").empty());
    EXPECT_EQ(index.definitions_named("new").size(), 1u);
    EXPECT_EQ(index.references_named("old").size(), 2u);  // b.py still uses it
    index.remove("b.py");
    EXPECT_TRUE(index.references_named("old").empty());
    EXPECT_EQ(index.file_count(), 1u);
    EXPECT_EQ(index.definition_count(), 1u);
}

TEST(NavigationQueries, ATreeTooLargeForAnIndexIsRefusedByName) {
    TempTree tree;
    tree.write("a.py", "x = 1\n");
    tree.write("b/c.py", "y = 2\n");
    ProjectOptions options;
    options.max_files = 1;
    try {
        build_index(tree.root(), options);
        FAIL() << "a tree of two files was indexed with a limit of one";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("more than 1 source files"), std::string::npos) << error.what();
    }
    options.max_files = 2;
    EXPECT_EQ(build_index(tree.root(), options).index.file_count(), 2u);
}

TEST(NavigationQueries, HostileTargetsAndDiffsAreAnsweredNotCrashedOn) {
    TempTree tree;
    tree.write("a.py", "import os\n\nclass Widget:\n    def helper(self):\n        return 1\n\n\ndef helper():\n    return 2\n\n\n"
                       "def main():\n    return os.getcwd() + helper()\n");
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    // Names made of separators only, and a line whose first use means nothing in the tree.
    EXPECT_THROW(find_symbol(context, {".", std::nullopt, "", 50}), std::invalid_argument);
    EXPECT_THROW(find_symbol(context, {"::", std::nullopt, "", 50}), std::invalid_argument);
    NavigationAnswer at_line = find_references(context, {"a.py:13", {}, true, 0, 100});  // os.getcwd(), then helper()
    EXPECT_EQ(at_line.data.at("target").at("qualifiedName").as_string(), "a.helper");
    EXPECT_THROW(call_hierarchy(context, {"a.py:1", CallDirection::callers, 1, 200}), std::invalid_argument);

    // A bare name in Python is never a method: helper() is the module's function.
    NavigationAnswer callers = call_hierarchy(context, {"a.helper", CallDirection::callers, 1, 200});
    ASSERT_EQ(callers.data.at("children").as_array().size(), 1u) << callers.text;
    EXPECT_EQ(callers.data.at("children").as_array()[0].at("qualifiedName").as_string(), "a.main");

    // A removed line that reads like a header ("--- x") is counted as the hunk's, not a new file.
    ImpactSearch given;
    given.diff = "--- a/a.py\n+++ b/a.py\n@@ -13,2 +13,1 @@\n--- not a header\n-    x\n+    return os.getcwd() + helper()\n";
    NavigationAnswer impact = change_impact(context, given);
    EXPECT_EQ(impact.data.at("changedFiles").to_number<std::int64_t>(), 1);
    ASSERT_EQ(impact.data.at("changed").as_array().size(), 1u) << impact.text;
    EXPECT_EQ(impact.data.at("changed").as_array()[0].at("qualifiedName").as_string(), "a.main");
}

TEST(NavigationQueries, DeadCodeSparesWhatTheLanguageCalls) {
    TempTree tree;
    tree.write("w.cpp", "class Widget {\npublic:\n    Widget() {}\n    ~Widget() {}\n    bool operator==(const Widget&) const { return true; }\n"
                        "    void draw() override {}\n};\nstatic void lonely() {}\n");
    tree.write("lib.rs", "fn helper() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn checks() {}\n}\n");
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    DeadCodeSearch search;
    search.include_exported = true;
    NavigationAnswer dead = find_dead_code(context, search);
    std::vector<std::string> names;
    for (const json::value& item : dead.data.at("definitions").as_array()) names.emplace_back(item.at("name").as_string());
    EXPECT_EQ(names, (std::vector<std::string>{"helper", "lonely"})) << dead.text;  // Widget is used by operator==
}
