#include "analyze/server/ToolCatalog.hpp"

#include "analyze/server/ResponseEnvelope.hpp"

#include <boost/json.hpp>

#include <stdexcept>

namespace mcpkit::analyze {
namespace json = boost::json;

namespace {

json::object text_property(std::string description) { return {{"type", "string"}, {"description", std::move(description)}}; }

json::object session_property() {
    return text_property(
        "Optional. A session from create-session: the call is recorded in its history and the answer's "
        "context.relatedResults lists earlier results about the same files.");
}

json::object thresholds_property() {
    return {{"type", "object"},
            {"description", "When findings are raised. Example: {\"cyclomatic\": 15, \"functionLines\": 100}"},
            {"properties",
             {{"cyclomatic", {{"type", "integer"}, {"minimum", 1}, {"description", "Cyclomatic complexity above which a function is flagged (default 10; above 20 is an error)"}}},
              {"cognitive", {{"type", "integer"}, {"minimum", 1}, {"description", "Cognitive complexity above which a function is flagged (default 15)"}}},
              {"functionLines", {{"type", "integer"}, {"minimum", 1}, {"description", "Length above which a function is flagged (default 60)"}}},
              {"nesting", {{"type", "integer"}, {"minimum", 1}, {"description", "Nesting depth above which a function is flagged (default 4)"}}}}}};
}

json::object language_property() {
    return {{"type", "string"},
            {"enum", {"c", "cpp", "python", "javascript", "typescript", "tsx", "go", "rust", "java"}},
            {"description", "The language; by default told from the file extension"}};
}

json::object file_report_schema() {
    return {{"type", "object"},
            {"description", "One file: lines (cloc's split), functions with cyclomatic and cognitive complexity and "
                            "nesting, types, imports, Halstead measures, maintainability index, findings at file:line"},
            {"properties",
             {{"path", {{"type", "string"}}},
              {"language", {{"type", "string"}}},
              {"lines", {{"type", "object"}}},
              {"functions", {{"type", "array"}}},
              {"types", {{"type", "array"}}},
              {"imports", {{"type", "array"}}},
              {"halstead", {{"type", "object"}}},
              {"maintainabilityIndex", {{"type", "number"}}},
              {"findings", {{"type", "array"}}}}},
            {"required", {"path", "language", "lines", "functions", "findings"}}};
}

json::object object_schema(json::object properties, std::initializer_list<std::string_view> required) {
    json::array names;
    for (std::string_view name : required) names.push_back(json::string(name));
    json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
    if (!names.empty()) schema["required"] = std::move(names);
    return schema;
}

json::object example(std::string description, json::object arguments) {
    return {{"description", std::move(description)}, {"arguments", std::move(arguments)}};
}

std::vector<CatalogEntry> build_catalog() {
    std::vector<CatalogEntry> catalog;
    catalog.push_back(
        {"analyze-file",
         "analysis",
         {"metrics", "complexity", "file"},
         "Analyse one source file with a real parser (tree-sitter): line counts (code, comment, blank, as cloc "
         "counts them), every function and method with its cyclomatic and cognitive complexity, nesting depth "
         "and length, classes and other types, imports, Halstead measures, the maintainability index (as radon "
         "computes it) and findings at file:line (high complexity, long functions, deep nesting, TODO/FIXME, "
         "parse errors). Languages: C, C++, Python, JavaScript, TypeScript/TSX, Go, Rust, Java.",
         object_schema({{"path", text_property("Path of the file, absolute or relative to the server's root, e.g. src/server.py")},
                        {"language", language_property()},
                        {"options", {{"type", "object"}, {"description", "Analysis options"},
                                     {"properties", {{"thresholds", thresholds_property()}}}}},
                        {"sessionId", session_property()}},
                       {"path"}),
         file_report_schema(),
         {example("Basic", {{"path", "src/server.py"}}),
          example("Stricter limits, in a session",
                  {{"path", "src/server.py"}, {"options", {{"thresholds", {{"cyclomatic", 5}}}}}, {"sessionId", "…"}})}});
    catalog.push_back(
        {"analyze-code",
         "analysis",
         {"metrics", "complexity", "snippet"},
         "Analyse source text that is not (or not yet) a file, such as a snippet or an edited buffer: the same "
         "report as analyze-file.",
         object_schema({{"code", text_property("The source text")},
                        {"language", language_property()},
                        {"filePath", text_property("Optional name for the text in the report; its extension may give the language")},
                        {"options", {{"type", "object"}, {"description", "Analysis options"},
                                     {"properties", {{"thresholds", thresholds_property()}}}}},
                        {"sessionId", session_property()}},
                       {"code"}),
         file_report_schema(),
         {example("A Python snippet", {{"code", "def f(x):\n    return 1 if x else 2\n"}, {"language", "python"}})}});
    catalog.push_back(
        {"analyze-project",
         "analysis",
         {"metrics", "project", "dependencies", "hotspots"},
         "Analyse every source file under a directory, in parallel: per-language totals (files, code, comment and "
         "blank lines), hotspots (the most complex functions), findings by rule, and the internal dependency "
         "graph with its import cycles. Unchanged files are served from a content-hash cache. Sends progress "
         "notifications when asked, and stops when cancelled.",
         object_schema(
             {{"projectPath", text_property("The directory to analyse, absolute or relative to the server's root")},
              {"options",
               {{"type", "object"},
                {"description", "What to analyse. Example: {\"include\": [\"src/**\"], \"exclude\": [\"**/test_*.py\"], "
                                "\"languages\": [\"python\"], \"maxDepth\": 3, \"includeDependencies\": true}"},
                {"properties",
                 {{"includeDependencies", {{"type", "boolean"}, {"description", "Build the internal dependency graph and find its cycles (default true)"}}},
                  {"maxDepth", {{"type", "integer"}, {"minimum", 0}, {"description", "Directory levels to descend below projectPath (default: all)"}}},
                  {"include", {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", "Globs of files to analyse, e.g. [\"src/**/*.py\"] (default: every file of a known language)"}}},
                  {"exclude", {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", "Globs to skip, e.g. [\"vendor/\", \"*.min.js\"]; .git, node_modules, __pycache__ and virtualenvs are always skipped"}}},
                  {"languages", {{"type", "array"}, {"items", language_property()}, {"description", "Only these languages, e.g. [\"cpp\", \"c\"]"}}},
                  {"useCache", {{"type", "boolean"}, {"description", "Reuse results for files whose content is unchanged (default true)"}}},
                  {"thresholds", thresholds_property()}}}}},
              {"sessionId", session_property()}},
             {"projectPath"}),
         {{"type", "object"}, {"description", "totals, byLanguage, hotspots, findingsByRule, errors, dependencies, skipped, files"}},
         {example("Whole project", {{"projectPath", "."}}),
          example("Only the Python sources, two levels deep",
                  {{"projectPath", "."}, {"options", {{"languages", {"python"}}, {"maxDepth", 2}, {"exclude", {"tests/"}}}}})}});
    catalog.push_back(
        {"get-symbols",
         "analysis",
         {"outline", "symbols", "navigation"},
         "Outline a file: its classes and other types, functions and methods with their line ranges, or look one "
         "up by name.",
         object_schema({{"path", text_property("The file to outline")},
                        {"query", text_property("Optional: only symbols whose name contains this text, e.g. \"parse\"")},
                        {"language", language_property()},
                        {"sessionId", session_property()}},
                       {"path"}),
         {{"type", "object"}},
         {example("Find the parse functions", {{"path", "src/parser.c"}, {"query", "parse"}})}});
    catalog.push_back(
        {"get-dependencies",
         "analysis",
         {"dependencies", "imports", "navigation"},
         "What a file imports, which of those are files of the project, which project files import it, the "
         "files it reaches (and that reach it) through other imports up to maxDepth steps, and the import cycles "
         "it is part of.",
         object_schema({{"path", text_property("The file whose imports to follow, absolute or relative to the server's root, e.g. pkg/module.py")},
                        {"projectPath", text_property("The project the file belongs to (default: the file's directory)")},
                        {"maxDepth", {{"type", "integer"}, {"minimum", 1}, {"maximum", 64},
                                      {"description", "How many import steps to follow in transitive.dependsOn and "
                                                      "transitive.importedBy (default 1: direct imports only)"}}},
                        {"sessionId", session_property()}},
                       {"path"}),
         {{"type", "object"}},
         {example("A module of a package", {{"path", "pkg/module.py"}, {"projectPath", "."}}),
          example("Everything a module needs, through three levels of imports",
                  {{"path", "src/app.ts"}, {"projectPath", "."}, {"maxDepth", 3}})}});
    for (CatalogEntry& entry : navigation_catalog_entries()) catalog.push_back(std::move(entry));
    catalog.push_back({"create-session",
                       "session",
                       {"session"},
                       "Start an analysis session. Pass its sessionId to later calls: they are recorded, and each answer "
                       "points at earlier results about the same files (context.relatedResults).",
                       object_schema({{"ttlSeconds", {{"type", "integer"}, {"minimum", 1}, {"maximum", 604800},
                                                      {"description", "How long the session lives without use (default 3600)"}}}},
                                     {}),
                       {{"type", "object"}},
                       {example("One hour", json::object{})}});
    catalog.push_back({"get-session-info", "session", {"session"}, "A session's age, TTL, number of calls and last use.",
                       object_schema({{"sessionId", text_property("The session")}}, {"sessionId"}),
                       {{"type", "object"}}, {}});
    catalog.push_back({"get-session-history", "session", {"session", "history"},
                       "The calls made in a session, newest last, with their state, summary and (unless too large) result.",
                       object_schema({{"sessionId", text_property("The session")},
                                      {"limit", {{"type", "integer"}, {"minimum", 1}, {"description", "Only the last N calls"}}},
                                      {"includeResults", {{"type", "boolean"}, {"description", "Include each call's result data (default false)"}}}},
                                     {"sessionId"}),
                       {{"type", "object"}}, {}});
    catalog.push_back({"clear-session", "session", {"session"}, "End a session and forget its history.",
                       object_schema({{"sessionId", text_property("The session")}}, {"sessionId"}),
                       {{"type", "object"}}, {}});
    catalog.push_back({"list-sessions", "session", {"session"}, "The live sessions.", object_schema({}, {}),
                       {{"type", "object"}}, {}});
    catalog.push_back({"list-available-tools", "discovery", {"discovery"},
                       "The tools this server offers, by category and tag, optionally with examples.",
                       object_schema({{"category", {{"type", "string"}, {"enum", {"analysis", "navigation", "session", "discovery"}},
                                                    {"description", "Only this category"}}},
                                      {"tag", text_property("Only tools with this tag, e.g. \"complexity\"")},
                                      {"includeExamples", {{"type", "boolean"}, {"description", "Include usage examples"}}}},
                                     {}),
                       {{"type", "object"}},
                       {example("Analysis tools with examples", {{"category", "analysis"}, {"includeExamples", true}})}});
    catalog.push_back({"get-tool-details", "discovery", {"discovery"},
                       "One tool in full: description, parameters with their descriptions, and examples.",
                       object_schema({{"toolName", text_property("The tool, e.g. analyze-project")}}, {"toolName"}),
                       {{"type", "object"}},
                       {example("", {{"toolName", "analyze-project"}})}});
    return catalog;
}

}  // namespace

const std::vector<CatalogEntry>& tool_catalog() {
    static const std::vector<CatalogEntry> catalog = build_catalog();
    return catalog;
}

const CatalogEntry* find_catalog_entry(std::string_view name) {
    for (const CatalogEntry& entry : tool_catalog())
        if (entry.name == name) return &entry;
    return nullptr;
}

mcp::Tool catalog_tool(std::string_view name) {
    const CatalogEntry* entry = find_catalog_entry(name);
    if (!entry) throw std::logic_error("no catalog entry for tool " + std::string(name));
    mcp::Tool tool;
    tool.name = entry->name;
    tool.description = entry->description;
    tool.input_schema = entry->input_schema;
    tool.output_schema = envelope_output_schema(entry->data_schema);
    if (entry->category != "session") tool.annotations["readOnlyHint"] = true;
    return tool;
}

}  // namespace mcpkit::analyze
