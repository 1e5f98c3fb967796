// The training run of profile-guided optimization for the tree-sitter runtime and grammars
// (CMakeLists.txt here): linked against their instrumented build, it parses a fixed corpus per
// language so that the counts GCC writes describe real parses. Deterministic on purpose: files in
// sorted order, one thread, a byte budget per language, so an unchanged corpus gives an unchanged
// profile. Each tree is walked too, as analyze walks it.
//
//   grammar_trainer BUDGET_BYTES LANGUAGE=ROOT...
//
// LANGUAGE is c, cpp, python, javascript, typescript (which also trains tsx), go, rust or java.
// It fails when a language finds nothing to parse: a grammar trained on nothing would be compiled
// as if it never ran.

#include "Grammars.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Grammar {
    std::set<std::string> extensions;
    std::vector<const TSLanguage* (*)()> languages;
};

const std::map<std::string, Grammar>& grammars() {
    static const std::map<std::string, Grammar> known = {
        {"c", {{".c", ".h"}, {tree_sitter_c}}},
        {"cpp", {{".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp"}, {tree_sitter_cpp}}},
        {"python", {{".py"}, {tree_sitter_python}}},
        {"javascript", {{".js", ".mjs", ".cjs"}, {tree_sitter_javascript}}},
        // TSX is TypeScript plus JSX: the same files train both grammars.
        {"typescript", {{".ts", ".mts"}, {tree_sitter_typescript, tree_sitter_tsx}}},
        {"go", {{".go"}, {tree_sitter_go}}},
        {"rust", {{".rs"}, {tree_sitter_rust}}},
        {"java", {{".java"}, {tree_sitter_java}}},
    };
    return known;
}

bool is_generated_directory(const fs::path& path) {
    std::string name = path.filename().string();
    return name == "node_modules" || name == "dist" || name == "out" || name == "build";
}

bool is_declaration_file(const fs::path& path) { return path.filename().string().ends_with(".d.ts"); }

std::vector<fs::path> sources_under(const fs::path& root, const Grammar& grammar) {
    std::vector<fs::path> found;
    std::error_code error;
    if (fs::is_regular_file(root, error)) return {root};
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        const fs::path& path = it->path();
        // Code as people write it: not the installed packages, nor bundles built from them.
        if (it->is_directory(error) && is_generated_directory(path)) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file(error) && grammar.extensions.contains(path.extension().string()) &&
            !is_declaration_file(path))
            found.push_back(path);
    }
    std::sort(found.begin(), found.end());
    return found;
}

// Every node once, depth first, with a tree cursor, the way analyze's walks go: the cursor and
// the node accessors are runtime code too, and a tenth of a cold report.
std::uint64_t walk(TSTree* tree) {
    std::uint64_t visited = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
    for (;;) {
        TSNode node = ts_tree_cursor_current_node(&cursor);
        visited += ts_node_symbol(node) + ts_node_child_count(node) + ts_node_start_byte(node);
        if (ts_tree_cursor_goto_first_child(&cursor)) continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
            if (!ts_tree_cursor_goto_parent(&cursor)) {
                ts_tree_cursor_delete(&cursor);
                return visited;
            }
        }
    }
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: grammar_trainer BUDGET_BYTES LANGUAGE=ROOT...\n");
        return 2;
    }
    const std::uintmax_t budget = std::strtoumax(argv[1], nullptr, 10);
    TSParser* parser = ts_parser_new();
    std::uint64_t checksum = 0;  // printed, so the walk's reads are not optimized away
    int status = 0;
    for (int i = 2; i < argc; ++i) {
        std::string argument = argv[i];
        std::size_t equals = argument.find('=');
        auto grammar = grammars().find(argument.substr(0, equals));
        if (equals == std::string::npos || grammar == grammars().end()) {
            std::fprintf(stderr, "grammar_trainer: %s is not LANGUAGE=ROOT with a known language\n", argv[i]);
            return 2;
        }
        std::uintmax_t parsed = 0;
        std::size_t files = 0;
        for (const fs::path& path : sources_under(argument.substr(equals + 1), grammar->second)) {
            if (parsed >= budget) break;
            std::string source = read_file(path);
            for (auto language : grammar->second.languages) {
                ts_parser_set_language(parser, language());
                TSTree* tree = ts_parser_parse_string(parser, nullptr, source.data(), static_cast<uint32_t>(source.size()));
                checksum += walk(tree);
                ts_tree_delete(tree);
            }
            parsed += source.size();
            ++files;
        }
        std::fprintf(stderr, "grammar_trainer: %s: %zu files, %ju bytes\n", argv[i], files, parsed);
        if (files == 0) {
            std::fprintf(stderr, "grammar_trainer: nothing to parse for %s\n", argv[i]);
            status = 1;
        }
    }
    ts_parser_delete(parser);
    std::fprintf(stderr, "grammar_trainer: walked, checksum %ju\n", static_cast<std::uintmax_t>(checksum));
    return status;
}
