// What the extractor reads out of one file, per language: definitions with their kind, container
// and line; uses with their kind and what they are reached through; locals left out; imports.

#include "NavigationFixtures.hpp"

using namespace navigation_test;

#define EXPECT_HAS(items, wanted) EXPECT_TRUE(contains(items, wanted)) << "missing " << (wanted) << " in:" << joined(items)
#define EXPECT_LACKS(items, unwanted) EXPECT_FALSE(contains(items, std::string(unwanted))) << "unexpected " << (unwanted) << " in:" << joined(items)

TEST(SymbolExtractor, GoDefinitionsReceiversUsesAndLocals) {
    FileSymbols symbols = symbols_of(R"(package server

import (
	"fmt"
	myio "io"
)

// Server serves things.
type Server struct {
	Name string
	myio.Reader
}

type Handler interface {
	Serve(w Writer) error
}

const MaxSize = 10

func (s *Server) Run(n int) error {
	x := helper(n)
	s.Name = fmt.Sprintf("%d", x)
	return s.stop()
}

func helper(n int) int { return n + MaxSize }
)",
                                     Language::go, "server.go");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "struct Server@9");
    EXPECT_HAS(defined, "field Name@10 [Server]");
    EXPECT_HAS(defined, "interface Handler@14");
    EXPECT_HAS(defined, "method Serve@15 [Handler]");
    EXPECT_HAS(defined, "constant MaxSize@18");
    EXPECT_HAS(defined, "method Run@20 [Server]");
    EXPECT_HAS(defined, "function helper@26");
    EXPECT_EQ(symbols.package, "server");
    EXPECT_EQ(symbols.text(symbols.definitions[0].doc), "Server serves things.");
    auto used = references(symbols);
    EXPECT_HAS(used, "call helper@21");
    // The receiver's type stands for the receiver: s.Name is Server's Name.
    EXPECT_HAS(used, "write Server.Name@22");
    EXPECT_HAS(used, "call fmt.Sprintf@22");
    EXPECT_HAS(used, "call Server.stop@23");
    EXPECT_HAS(used, "read MaxSize@26");
    EXPECT_HAS(used, "type myio.Reader@11");
    // Locals (x, n, s), imported package names and builtins are not uses of definitions.
    for (const char* local : {"read x@22", "read n@21", "read n@26", "read fmt@22", "type int@26", "type string@10"})
        EXPECT_LACKS(used, local);
    ASSERT_EQ(symbols.relations.size(), 1u);
    EXPECT_EQ(symbols.text(symbols.relations[0].target), "Reader");
    EXPECT_EQ(symbols.relations[0].kind, RelationKind::embeds);
    ASSERT_EQ(symbols.imports.size(), 2u);
    EXPECT_EQ(symbols.text(symbols.imports[1].alias), "myio");
    EXPECT_EQ(symbols.text(symbols.imports[1].module), "io");
}

TEST(SymbolExtractor, PythonClassesSelfGlobalsAndComprehensions) {
    FileSymbols symbols = symbols_of(R"(import os.path
from collections import OrderedDict as OD

LIMIT = 5

class Store(Base, os.PathLike):
    """A store of things."""
    kind = "x"

    def load(self, name=None):
        data = helper(name)
        self.items = OD()
        return [key for key in data if key != LIMIT]

def helper(name):
    global LIMIT
    LIMIT = 3
    store = Store()
    return store.load(name)
)",
                                     Language::python, "pkg/store.py");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "variable LIMIT@4");
    EXPECT_HAS(defined, "class Store@6");
    EXPECT_HAS(defined, "field kind@8 [Store]");
    EXPECT_HAS(defined, "method load@10 [Store]");
    EXPECT_HAS(defined, "function helper@15");
    EXPECT_EQ(symbols.text(symbols.definitions[1].doc), "A store of things.");
    auto used = references(symbols);
    EXPECT_HAS(used, "import collections.OrderedDict@2");
    EXPECT_HAS(used, "call helper@11");
    EXPECT_HAS(used, "write self.items@12");
    EXPECT_HAS(used, "call OD@12");
    EXPECT_HAS(used, "read LIMIT@13");
    EXPECT_HAS(used, "write LIMIT@17");  // `global LIMIT`: the module's variable
    // store = Store(): its methods are Store's.
    EXPECT_HAS(used, "call Store.load@19");
    for (const char* local : {"read data@13", "read key@13", "read name@11", "read store@19"}) EXPECT_LACKS(used, local);
    ASSERT_EQ(symbols.relations.size(), 2u);
    EXPECT_EQ(symbols.text(symbols.relations[1].qualifier), "os");
    EXPECT_EQ(symbols.text(symbols.relations[1].target), "PathLike");
}

TEST(SymbolExtractor, TypeScriptInterfacesClassesArrowFunctionsAndImports) {
    FileSymbols symbols = symbols_of(R"(import { readFile as rf } from "fs";
import * as path from "path";

/** Things that store. */
export interface Store extends Base<string> {
  get(key: string): number;
}

export class FileStore extends BaseStore implements Store {
  private cache = new Map<string, number>();
  get(key: string): number {
    const value = this.cache.get(key);
    return compute(value, path.join(key));
  }
}

export const compute = (a: number, b: string): number => a + rf(b);
export type Id = string;
enum Color { Red, Green = 2 }
)",
                                     Language::typescript, "store.ts");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "interface Store@5");
    EXPECT_HAS(defined, "method get@6 [Store]");
    EXPECT_HAS(defined, "class FileStore@9");
    EXPECT_HAS(defined, "field cache@10 [FileStore]");
    EXPECT_HAS(defined, "method get@11 [FileStore]");
    EXPECT_HAS(defined, "function compute@17");
    EXPECT_HAS(defined, "type Id@18");
    EXPECT_HAS(defined, "enum Color@19");
    EXPECT_HAS(defined, "enumMember Red@19 [Color]");
    EXPECT_EQ(symbols.text(symbols.definitions[0].doc), "Things that store.");
    EXPECT_TRUE(symbols.definitions[0].exported);
    auto used = references(symbols);
    EXPECT_HAS(used, "import fs.readFile@1");
    EXPECT_HAS(used, "call this.cache.get@12");
    EXPECT_HAS(used, "call compute@13");
    EXPECT_HAS(used, "call path.join@13");
    EXPECT_HAS(used, "call rf@17");
    EXPECT_LACKS(used, "read value@13");
    EXPECT_LACKS(used, "read path@13");
    ASSERT_EQ(symbols.relations.size(), 3u);
    EXPECT_EQ(symbols.relations[2].kind, RelationKind::implements);
}

TEST(SymbolExtractor, CDeclaratorsTypedefsMacrosAndPrototypes) {
    FileSymbols symbols = symbols_of(R"(#include "util.h"
#define MAX(a, b) ((a) > (b) ? (a) : (b))
/* A point. */
struct point { int x, y; };
typedef struct node { struct node *next; } node_t;
typedef int (*callback)(int);
enum color { RED, GREEN };
static int counter = 0;
extern int shared;
int add(int a, int b);
static int
add(int a, int b)
{
    int total = a + b;
    counter++;
    struct point p = { 1, 2 };
    p.x = MAX(total, shared);
    return helper(p.x, RED);
}
)",
                                     Language::c, "add.c");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "macro MAX@2");
    EXPECT_HAS(defined, "struct point@4");
    EXPECT_HAS(defined, "field x@4 [point]");
    EXPECT_HAS(defined, "type node_t@5");
    EXPECT_HAS(defined, "struct node@5");
    EXPECT_HAS(defined, "type callback@6");
    EXPECT_HAS(defined, "enumMember RED@7 [color]");
    EXPECT_HAS(defined, "variable counter@8");
    EXPECT_HAS(defined, "function add@12");  // the name's line, not the return type's
    // The prototype and the extern declaration define nothing here.
    EXPECT_LACKS(defined, "function add@10");
    EXPECT_LACKS(defined, "variable shared@9");
    auto used = references(symbols);
    EXPECT_HAS(used, "write counter@15");
    EXPECT_HAS(used, "type point@16");
    EXPECT_HAS(used, "write point.x@17");  // p is a struct point
    EXPECT_HAS(used, "call MAX@17");
    EXPECT_HAS(used, "read shared@17");
    EXPECT_HAS(used, "call helper@18");
    EXPECT_HAS(used, "read RED@18");
    for (const char* local : {"read total@17", "read a@14", "read p@18", "read a@10"}) EXPECT_LACKS(used, local);
}

TEST(SymbolExtractor, CppClassesOutOfClassMethodsAndBases) {
    FileSymbols symbols = symbols_of(R"(namespace app {
class Base {
public:
    virtual int run(int n) = 0;
    int value() const { return counter_; }
private:
    int counter_ = 0;
};
template <typename T>
struct Derived : public Base, private Mixin<T> {
    int run(int n) override;
};
int Derived<int>::run(int n) { return helper(n) + this->value(); }
}
)",
                                     Language::cpp, "app.cpp");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "namespace app@1");
    EXPECT_HAS(defined, "class Base@2 [app]");
    EXPECT_HAS(defined, "method value@5 [app.Base]");
    EXPECT_HAS(defined, "field counter_@7 [app.Base]");
    EXPECT_HAS(defined, "struct Derived@10 [app]");
    EXPECT_HAS(defined, "function run@13 [app.Derived]");
    auto used = references(symbols);
    EXPECT_HAS(used, "call helper@13");
    EXPECT_HAS(used, "call this.value@13");
    ASSERT_EQ(symbols.relations.size(), 2u);
    EXPECT_EQ(symbols.text(symbols.relations[0].target), "Base");
    EXPECT_EQ(symbols.text(symbols.relations[1].target), "Mixin");
}

TEST(SymbolExtractor, RustTraitsImplsUseTreesAndPatterns) {
    FileSymbols symbols = symbols_of(R"(use std::collections::{HashMap, hash_map::Entry as E};
/// A shape.
pub trait Shape: Debug {
    fn area(&self) -> f64;
}
pub struct Circle { pub radius: f64 }
impl Shape for Circle {
    fn area(&self) -> f64 { helper(self.radius) * PI }
}
const PI: f64 = 3.14;
fn main() {
    let shape = Circle::new(1.0);
    match shape.area() { x if x > 0.0 => println!("{}", x), _ => {} }
}
)",
                                     Language::rust, "shape.rs");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "trait Shape@3");
    EXPECT_HAS(defined, "method area@4 [Shape]");
    EXPECT_HAS(defined, "struct Circle@6");
    EXPECT_HAS(defined, "field radius@6 [Circle]");
    EXPECT_HAS(defined, "method area@8 [Circle]");
    EXPECT_HAS(defined, "constant PI@10");
    EXPECT_HAS(defined, "function main@11");
    EXPECT_EQ(symbols.text(symbols.definitions[0].doc), "A shape.");
    auto used = references(symbols);
    EXPECT_HAS(used, "import std::collections.HashMap@1");
    EXPECT_HAS(used, "import std::collections::hash_map.Entry@1");
    EXPECT_HAS(used, "call helper@8");
    EXPECT_HAS(used, "read self.radius@8");
    EXPECT_HAS(used, "call Circle.new@12");
    EXPECT_HAS(used, "call Circle.area@13");  // let shape = Circle::new(…): shape is a Circle
    EXPECT_LACKS(used, "read x@13");
    bool implements = false;
    for (const Relation& relation : symbols.relations)
        implements |= relation.kind == RelationKind::implements && symbols.text(relation.subject) == "Circle" &&
                      symbols.text(relation.target) == "Shape";
    EXPECT_TRUE(implements);
}

TEST(SymbolExtractor, JavaMembersTypedLocalsAndStaticImports) {
    FileSymbols symbols = symbols_of(R"(package com.example.store;

import java.util.List;
import static java.lang.Math.max;

/** A store. */
public class Store<T> extends Base implements Closeable {
    private final List<T> items = new ArrayList<>();
    public static final int LIMIT = 10;

    public Store(int size) { super(size); }

    public void close() {
        Helper helper = new Helper();
        int n = max(items.size(), LIMIT);
        helper.run(n, x -> x + 1);
    }
    enum Mode { FAST, SLOW }
}
)",
                                     Language::java, "com/example/store/Store.java");
    EXPECT_EQ(symbols.package, "com.example.store");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "class Store@7");
    EXPECT_HAS(defined, "field items@8 [Store]");
    EXPECT_HAS(defined, "field LIMIT@9 [Store]");
    EXPECT_HAS(defined, "method Store@11 [Store]");
    EXPECT_HAS(defined, "method close@13 [Store]");
    EXPECT_HAS(defined, "enum Mode@18 [Store]");
    EXPECT_HAS(defined, "enumMember FAST@18 [Store.Mode]");
    auto used = references(symbols);
    EXPECT_HAS(used, "import java.util.List@3");
    EXPECT_HAS(used, "import java.lang.Math.max@4");
    EXPECT_HAS(used, "call max@15");
    EXPECT_HAS(used, "call items.size@15");
    EXPECT_HAS(used, "call Helper.run@16");  // the local's declared type
    EXPECT_LACKS(used, "read n@16");
    EXPECT_LACKS(used, "read x@16");
}

TEST(SymbolExtractor, JavaScriptExportsDestructuringAndPrivateFields) {
    FileSymbols symbols = symbols_of(R"(import fs from "fs";
export default class Widget extends Base {
  #secret = 1;
  render(props) {
    const { title, items = [] } = props;
    return items.map((item) => helper(item, title, this.#secret));
  }
}
export function helper(item, title) { return fs.readFileSync(title + item); }
)",
                                     Language::javascript, "widget.js");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "class Widget@2");
    EXPECT_HAS(defined, "field #secret@3 [Widget]");
    EXPECT_HAS(defined, "method render@4 [Widget]");
    EXPECT_HAS(defined, "function helper@9");
    EXPECT_TRUE(symbols.definitions[0].exported);
    auto used = references(symbols);
    EXPECT_HAS(used, "call helper@6");
    EXPECT_HAS(used, "read this.#secret@6");
    EXPECT_HAS(used, "read Base@2");
    for (const char* local : {"read title@6", "read item@6", "read props@5", "read items@6"}) EXPECT_LACKS(used, local);
}

TEST(SymbolExtractor, BrokenSourceStillYieldsWhatParses) {
    FileSymbols symbols = symbols_of("def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass Fine:\n    pass\n", Language::python,
                                     "broken.py");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "function ok@1");
    EXPECT_HAS(defined, "class Fine@7");
}

TEST(SymbolExtractor, JavaScriptPrototypeAssignmentsAndObjectLiteralMethods) {
    FileSymbols symbols = symbols_of(R"(function Widget() {}
Widget.prototype.draw = function () { return paint(this); };
var helpers = {
  paint: function (w) { return w; },
  size(w) { return 1; },
  label: "not a function"
};
paint = function (w) { return helpers.paint(w); };
)",
                                     Language::javascript, "old.js");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "function Widget@1");
    EXPECT_HAS(defined, "method draw@2 [Widget]");
    EXPECT_HAS(defined, "method paint@4");
    EXPECT_HAS(defined, "method size@5");
    EXPECT_HAS(defined, "function paint@8");
    EXPECT_LACKS(defined, "method label@6");
    // Uses inside such a function belong to it.
    for (const Reference& reference : symbols.references) {
        if (symbols.text(reference.name) == "paint" && reference.line == 2) {
            EXPECT_EQ(symbols.text(symbols.definitions[static_cast<std::size_t>(reference.enclosing)].name), "draw");
        }
    }
}

TEST(SymbolExtractor, CDeclarationsInsideBodiesAndRecoveredKeywords) {
    FileSymbols symbols = symbols_of(R"(int (*handler)(int) = 0;
void g(void) {
    extern int h(int);
    int (*local)(int) = handler;
    h(1);
    local(2);
}
int __attribute__((section(".text.x"))) placed(void) { return 0; }
)",
                                     Language::c, "decl.c");
    auto defined = definitions(symbols);
    EXPECT_HAS(defined, "variable handler@1");  // a pointer to a function is a variable
    EXPECT_HAS(defined, "function placed@8");
    auto used = references(symbols);
    EXPECT_HAS(used, "call h@5");           // declared inside g, still a function of the tree
    EXPECT_LACKS(used, "call local@6");     // a local pointer
    EXPECT_HAS(used, "read handler@4");
    EXPECT_LACKS(used, "call section@8");   // attribute arguments are not calls
    for (const Definition& definition : symbols.definitions) EXPECT_NE(symbols.text(definition.name), "if");
}
