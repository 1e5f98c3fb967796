// The navigation tools' catalog entries: descriptions, input schemas with examples.

#include "analyze/server/ToolCatalog.hpp"

#include <boost/json.hpp>

namespace mcpkit::analyze {
namespace json = boost::json;

namespace {

json::object text(std::string description) { return {{"type", "string"}, {"description", std::move(description)}}; }
json::object whole(std::string description, int minimum, int maximum) {
    return {{"type", "integer"}, {"minimum", minimum}, {"maximum", maximum}, {"description", std::move(description)}};
}

json::object schema(json::object properties, std::initializer_list<std::string_view> required) {
    properties["projectPath"] = text("The tree to index and search, absolute or relative to the server's root (default: the root)");
    properties["sessionId"] = text("Optional. A session from create-session: the call joins its history");
    json::array names;
    for (std::string_view name : required) names.push_back(json::string(name));
    json::object out{{"type", "object"}, {"properties", std::move(properties)}};
    if (!names.empty()) out["required"] = std::move(names);
    return out;
}

json::object example(std::string description, json::object arguments) {
    return {{"description", std::move(description)}, {"arguments", std::move(arguments)}};
}

json::object symbol_property() {
    return text("The symbol: a name (Serve), a qualified name (http.Server.Serve, Store::get, pkg.module.func) or the "
                "place of its definition or of a use, path:line:column (path relative to projectPath)");
}

const char* index_note =
    " The index (definitions, uses, calls, supertypes of every file, by tree-sitter, for C, C++, Python, "
    "JavaScript, TypeScript, Go, Rust and Java) is built on first use with progress notifications, kept by "
    "content hash in the analysis cache, and kept current by watching the tree: files edited by anyone are "
    "re-read within a second. Uses that syntax alone cannot tie to one definition are marked certain: false.";

}  // namespace

std::vector<CatalogEntry> navigation_catalog_entries() {
    json::object kind{{"type", "string"},
                      {"enum", {"function", "method", "class", "struct", "union", "enum", "interface", "trait", "type",
                                "constant", "variable", "field", "enumMember", "macro", "namespace", "module"}},
                      {"description", "Only definitions of this kind"}};
    std::vector<CatalogEntry> entries;
    entries.push_back(
        {"find-symbol",
         "navigation",
         {"navigation", "symbols", "definition"},
         std::string("Where things are defined: definitions by name, qualified name or pattern (Serve*, *Handler), "
                     "with kind, signature, container, the first line of their documentation and file:line:column.") +
             index_note,
         schema({{"query", text("A name, a qualified name (http.Server.Serve) or a glob (Serve*, *_test); a lower-case "
                                "glob ignores case")},
                 {"kind", kind},
                 {"path", text("Only definitions in files under this path, relative to projectPath (e.g. src/net)")},
                 {"limit", whole("Most definitions to list (default 50)", 1, 5000)}},
                {"query"}),
         {{"type", "object"}, {"description", "total, truncated, symbols: [{name, qualifiedName, kind, location, signature, doc, …}]"}},
         {example("A method by its qualified name", {{"query", "Server.Serve"}}),
          example("Every handler type", {{"query", "*Handler"}, {"kind", "interface"}})}});
    entries.push_back(
        {"find-references",
         "navigation",
         {"navigation", "references", "usages"},
         std::string("Every use of a symbol: where (with the line's text), how (call, read, write, import, type) and "
                     "in which definition. Paged with offset and limit.") +
             index_note,
         schema({{"symbol", symbol_property()},
                 {"kinds", {{"type", "array"},
                            {"items", {{"type", "string"}, {"enum", {"call", "read", "write", "import", "type"}}}},
                            {"description", "Only these kinds of use, e.g. [\"call\"]"}}},
                 {"includeUncertain", {{"type", "boolean"}, {"description", "Also uses that may mean another definition of the same name (default true)"}}},
                 {"offset", whole("Skip this many uses (paging; the answer's nextOffset)", 0, 100000000)},
                 {"limit", whole("Most uses to list (default 100)", 1, 5000)}},
                {"symbol"}),
         {{"type", "object"}, {"description", "target, total, certain, nextOffset, references: [{location, kind, certain, enclosing, text}]"}},
         {example("Who uses a function", {{"symbol", "parse_config"}}),
          example("Only the calls, by place", {{"symbol", "src/server.go:120:6"}, {"kinds", {"call"}}})}});
    entries.push_back(
        {"get-call-hierarchy",
         "navigation",
         {"navigation", "calls", "callers", "callees"},
         std::string("The callers of a function or method, or what it calls, as a tree to a depth, each node with "
                     "its place and the call sites. Calls to names the tree does not define are listed as such.") +
             index_note,
         schema({{"symbol", symbol_property()},
                 {"direction", {{"type", "string"}, {"enum", {"callers", "callees"}}, {"description", "callers (default) or callees"}}},
                 {"depth", whole("Levels of the tree (default 1)", 1, 10)},
                 {"limit", whole("Most nodes in the whole tree (default 200)", 1, 5000)}},
                {"symbol"}),
         {{"type", "object"}, {"description", "target, direction, depth, children: [{qualifiedName, location, calls, certain, children}]"}},
         {example("Who calls it, two levels up", {{"symbol", "Store.save"}, {"depth", 2}}),
          example("What it calls", {{"symbol", "main"}, {"direction", "callees"}})}});
    entries.push_back(
        {"get-type-hierarchy",
         "navigation",
         {"navigation", "types", "inheritance", "implementations"},
         std::string("The supertypes of a type, or its subtypes and implementations: base classes, implemented "
                     "interfaces and traits, embedded Go types; for a Go interface also the types whose methods "
                     "satisfy it.") +
             index_note,
         schema({{"symbol", symbol_property()},
                 {"direction", {{"type", "string"}, {"enum", {"supertypes", "subtypes"}}, {"description", "subtypes (default) or supertypes"}}},
                 {"depth", whole("Levels (default 3)", 1, 10)}},
                {"symbol"}),
         {{"type", "object"}, {"description", "target, direction, children: [{qualifiedName, relation, location, children}]"}},
         {example("Implementations of an interface", {{"symbol", "io.Reader"}}),
          example("What a class derives from", {{"symbol", "FileStore"}, {"direction", "supertypes"}})}});
    entries.push_back(
        {"get-change-impact",
         "navigation",
         {"navigation", "impact", "diff", "tests"},
         std::string("What a change reaches: the definitions the working tree changes against a git ref (or that a "
                     "given unified diff changes), those it removes, the definitions that use them transitively, and "
                     "the files and tests they are in.") +
             index_note,
         schema({{"base", text("The git ref to compare the working tree with (default HEAD), e.g. main, HEAD~3")},
                 {"diff", text("A unified diff to read instead of asking git (paths relative to projectPath)")},
                 {"depth", whole("Steps of uses to follow (default 3)", 1, 10)},
                 {"limit", whole("Most impacted definitions (default 200)", 1, 5000)}},
                {}),
         {{"type", "object"}, {"description", "changed, removed, impacted: [{qualifiedName, depth, via}], files, tests"}},
         {example("Uncommitted changes", json::object{}), example("This branch against main", {{"base", "main"}})}});
    entries.push_back(
        {"find-dead-code",
         "navigation",
         {"navigation", "dead code", "unused"},
         std::string("Definitions nothing in the tree uses: functions, methods, types, constants and variables that "
                     "no use may mean. Entry points (main, tests, constructors, overrides, dunder methods) are left "
                     "out, and so are exported names unless includeExported (code outside the tree may use them).") +
             index_note,
         schema({{"path", text("Only definitions under this path, relative to projectPath")},
                 {"kinds", {{"type", "array"}, {"items", kind}, {"description", "Only these kinds"}}},
                 {"includeExported", {{"type", "boolean"}, {"description", "List exported definitions too (default false)"}}},
                 {"limit", whole("Most definitions to list (default 200)", 1, 5000)}},
                {}),
         {{"type", "object"}, {"description", "total, exportedUnused, caveats, definitions"}},
         {example("Unused code under src", {{"path", "src"}})}});
    return entries;
}

}  // namespace mcpkit::analyze
