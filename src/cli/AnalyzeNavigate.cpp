// `mcpkit analyze find|refs|callers|callees|types|dead|impact`: the navigation tools for people.
// Each builds (or reuses, through the cache) the index of --root and asks it the same question the
// MCP tool would, printing the text answer, or the tool's data with --json.

#include "cli/AnalyzeReport.hpp"

#include "analyze/navigation/IndexBuilder.hpp"
#include "analyze/navigation/NavigationQueries.hpp"
#include "analyze/project/AnalysisCache.hpp"
#include "cli/PrettyJson.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace mcpkit::cli {

using namespace mcpkit::analyze;

void add_analyze_navigation_commands(CLI::App& analyze, AnalyzeNavigationArguments& arguments) {
    auto common = [&](CLI::App* command) {
        command->add_option("--root", arguments.root, "The tree to index (default: here)");
        command->add_flag("--json", arguments.json, "Print the answer's data as JSON (what the MCP tool returns)");
        command->add_flag("--no-cache", arguments.no_cache, "Parse every file instead of reusing stored symbols");
        command->add_option("--cache", arguments.cache_path, "Cache file (default: $XDG_CACHE_HOME/mcpkit/analyze.sqlite)");
        command->add_option("--limit", arguments.limit, "Most results to list")->capture_default_str();
        command->add_option("--max-file-bytes", arguments.max_file_bytes,
                            "Skip larger files (a syntax tree takes up to ~50 times its source in memory)")
            ->check(CLI::Range(std::int64_t{1}, std::int64_t{64} << 20))
            ->capture_default_str();
        command->add_option("--progress", arguments.progress, "Progress bar on stderr: auto (when a terminal), always, never")
            ->check(CLI::IsMember({"auto", "always", "never"}))
            ->capture_default_str();
        command->callback([&arguments, command] { arguments.command = command->get_name(); });
    };
    CLI::App* find = analyze.add_subcommand("find", "Find definitions by name, qualified name (Server.Serve) or pattern (Serve*)");
    find->add_option("name", arguments.target, "What to look for")->required();
    find->add_option("--kind", arguments.kind, "Only this kind: function, method, class, struct, interface, …");
    find->add_option("--path", arguments.path, "Only under this path (relative to --root)");
    find->add_flag("--tsv", arguments.tsv, "Every match, one per line: path, line, column, kind, qualified name (tab-separated)");
    common(find);
    CLI::App* refs = analyze.add_subcommand("refs", "Every use of a symbol (a qualified name or path:line:column)");
    refs->add_option("symbol", arguments.target, "The symbol")->required();
    refs->add_option("--offset", arguments.offset, "Skip this many uses (paging)");
    common(refs);
    for (const char* name : {"callers", "callees"}) {
        CLI::App* calls = analyze.add_subcommand(name, std::string("The ") + name + " of a function, as a tree");
        calls->add_option("symbol", arguments.target, "The function (a qualified name or path:line:column)")->required();
        calls->add_option("--depth", arguments.depth, "Levels of the tree")->capture_default_str();
        calls->add_flag("--tsv", arguments.tsv,
                        "With the symbol *: every call in the tree, one per line: path, line, column, caller, called "
                        "name, the definitions it may mean (tab-separated)");
        common(calls);
    }
    CLI::App* types = analyze.add_subcommand("types", "Subtypes and implementations of a type (--up: its supertypes)");
    types->add_option("symbol", arguments.target, "The type")->required();
    types->add_flag("--up", arguments.up, "Supertypes instead of subtypes");
    types->add_option("--depth", arguments.depth, "Levels of the tree")->capture_default_str();
    common(types);
    CLI::App* dead = analyze.add_subcommand("dead", "Definitions nothing in the tree uses");
    dead->add_option("path", arguments.path, "Only under this path (relative to --root)");
    dead->add_flag("--exported", arguments.include_exported, "List exported ones too (code outside the tree may use them)");
    common(dead);
    CLI::App* impact = analyze.add_subcommand("impact", "What a change reaches: changed definitions, their users, files and tests");
    impact->add_option("--base", arguments.base, "Compare the working tree with this git ref")->capture_default_str();
    impact->add_option("--diff", arguments.diff_file, "Read a unified diff from this file (- for stdin) instead of asking git");
    impact->add_option("--depth", arguments.depth, "How many steps of uses to follow")->capture_default_str();
    common(impact);
}

namespace {

// The whole call graph, for other tools (and the agreement checks) to read.
void print_call_graph(const CodeIndex& index) {
    for (std::uint32_t slot = 0; slot < index.slot_count(); ++slot) {
        const FileSymbols* file = index.file(slot);
        if (!file) continue;
        for (std::uint32_t i = 0; i < file->references.size(); ++i) {
            const Reference& reference = file->references[i];
            if (reference.kind != ReferenceKind::call) continue;
            std::string caller = reference.enclosing >= 0 ? index.qualified_name({slot, static_cast<std::uint32_t>(reference.enclosing)}) : "-";
            std::string meant;
            for (SymbolId candidate : index.resolve({slot, i}).candidates) {
                if (!meant.empty()) meant += ' ';
                meant += index.file(candidate.file)->path + ":" + std::to_string(index.definition(candidate).line);
            }
            std::printf("%s\t%u\t%u\t%s\t%s\t%s\n", file->path.c_str(), reference.line, reference.column, caller.c_str(),
                        std::string(file->text(reference.name)).c_str(), meant.empty() ? "-" : meant.c_str());
        }
    }
}

}  // namespace

int run_analyze_navigation(const AnalyzeNavigationArguments& arguments) {
    ProjectOptions options;
    options.max_file_bytes = arguments.max_file_bytes;
    if (!arguments.no_cache) options.cache_path = arguments.cache_path.empty() ? AnalysisCache::default_path() : arguments.cache_path;
    FileProgress progress = file_progress(arguments.progress, "files indexed");
    options.progress = progress.draw;
    options.cancel = progress.interrupted;
    try {
        IndexBuild build = build_index(arguments.root, options);
        for (const std::string& warning : build.warnings) std::fprintf(stderr, "mcpkit analyze: %s\n", warning.c_str());
        if (build.cancelled) {
            std::fprintf(stderr, "mcpkit analyze: interrupted while indexing\n");
            return 130;
        }
        NavigationContext context{build.index, build.root};
        NavigationAnswer answer;
        const std::string& command = arguments.command;
        if (command == "find") {
            SymbolSearch search{arguments.target, std::nullopt, arguments.path, arguments.limit};
            if (!arguments.kind.empty()) {
                search.kind = parse_symbol_kind(arguments.kind);
                if (!search.kind) {
                    std::fprintf(stderr, "mcpkit analyze: --kind %s: unknown; use function, method, class, struct, union, enum, "
                                         "interface, trait, type, constant, variable, field, enumMember, macro, namespace or module\n",
                                 arguments.kind.c_str());
                    return 2;
                }
            }
            if (arguments.tsv) {
                for (SymbolId id : matching_symbols(context, search)) {
                    const Definition& definition = build.index.definition(id);
                    std::printf("%s\t%u\t%u\t%s\t%s\n", build.index.file(id.file)->path.c_str(), definition.line, definition.column,
                                std::string(name(definition.kind)).c_str(), build.index.qualified_name(id).c_str());
                }
                return 0;
            }
            answer = find_symbol(context, search);
        } else if (command == "refs") {
            ReferenceSearch search;
            search.target = arguments.target;
            search.offset = arguments.offset;
            search.limit = arguments.limit;
            answer = find_references(context, search);
        } else if ((command == "callers" || command == "callees") && arguments.tsv) {
            if (arguments.target != "*") {
                std::fprintf(stderr, "mcpkit analyze: --tsv lists every call: give * as the symbol\n");
                return 2;
            }
            print_call_graph(build.index);
            return 0;
        } else if (command == "callers" || command == "callees") {
            CallSearch search{arguments.target, command == "callers" ? CallDirection::callers : CallDirection::callees,
                              arguments.depth, arguments.limit};
            answer = call_hierarchy(context, search);
        } else if (command == "types") {
            answer = type_hierarchy(context, {arguments.target, arguments.up ? TypeDirection::supertypes : TypeDirection::subtypes,
                                              arguments.depth});
        } else if (command == "dead") {
            DeadCodeSearch search;
            search.path = arguments.path;
            search.include_exported = arguments.include_exported;
            search.limit = arguments.limit;
            answer = find_dead_code(context, search);
        } else {
            ImpactSearch search;
            search.base = arguments.base;
            search.depth = arguments.depth;
            search.limit = arguments.limit;
            if (!arguments.diff_file.empty()) {
                std::ifstream file;
                std::istream* in = &std::cin;
                if (arguments.diff_file != "-") {
                    file.open(arguments.diff_file, std::ios::binary);
                    if (!file) {
                        std::fprintf(stderr, "mcpkit analyze: --diff %s: cannot be read\n", arguments.diff_file.c_str());
                        return 2;
                    }
                    in = &file;
                }
                search.diff.assign(std::istreambuf_iterator<char>(*in), std::istreambuf_iterator<char>());
                if (search.diff.empty()) {
                    std::fprintf(stderr, "mcpkit analyze: --diff %s is empty\n", arguments.diff_file.c_str());
                    return 2;
                }
            }
            answer = change_impact(context, search);
        }
        if (arguments.json)
            std::printf("%s\n", pretty_json(answer.data).c_str());
        else
            std::fputs(answer.text.c_str(), stdout);
        // Taking a large index apart node by node is work nobody waits for: the process ends here.
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(0);
    } catch (const std::exception& failure) {
        std::fprintf(stderr, "mcpkit analyze: %s\n", failure.what());
        return 2;
    }
}

}  // namespace mcpkit::cli
