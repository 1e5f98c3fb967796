// The floor under a cold `mcpkit analyze` run: tree-sitter alone building (and freeing) the syntax
// tree of every file analyze would read in a tree, on as many threads as analyze uses, in the
// per-file ParseArena analyze parses in, and nothing else: no walk, no metrics, no report.
// run-analyze.sh prints it beside radon and cloc, so a target below it is visibly out of reach
// for any tree-sitter based analyzer on this machine.
//
//   tree_sitter_parse_floor TREE      prints: files bytes seconds

#include "analyze/syntax/Language.hpp"
#include "analyze/syntax/ParseArena.hpp"

#include <tree_sitter/api.h>

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using mcpkit::analyze::Language;

namespace {

struct SourceFile {
    fs::path path;
    Language language;
    std::uintmax_t bytes;
};

// The same selection as analyze's defaults: known extensions, no links to directories, none of
// the excluded directories, nothing over 4 MB.
std::vector<SourceFile> find_sources(const fs::path& root) {
    static const std::string excluded[] = {".git", ".hg",    ".svn",         "node_modules", "__pycache__",    ".venv", "venv",
                                           ".tox", ".mypy_cache", ".pytest_cache", ".cache",       ".idea", ".vscode"};
    std::vector<SourceFile> found;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied);
         it != fs::recursive_directory_iterator(); ++it) {
        if (it->is_directory() && !it->is_symlink()) {
            if (std::find(std::begin(excluded), std::end(excluded), it->path().filename().string()) != std::end(excluded))
                it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file()) continue;
        auto language = mcpkit::analyze::language_for_path(it->path().string());
        if (!language || it->file_size() > 4 * 1024 * 1024) continue;
        found.push_back({it->path(), *language, it->file_size()});
    }
    // Largest first, as analyze schedules them.
    std::sort(found.begin(), found.end(), [](const SourceFile& a, const SourceFile& b) { return a.bytes > b.bytes; });
    return found;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: tree_sitter_parse_floor TREE\n");
        return 2;
    }
    std::vector<SourceFile> files = find_sources(argv[1]);
    cpu_set_t cpus;
    unsigned threads = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? unsigned(CPU_COUNT(&cpus)) : 1;
    std::atomic<std::size_t> next{0};
    std::atomic<std::uintmax_t> bytes{0};
    auto started = std::chrono::steady_clock::now();
    auto parse_all = [&] {
        std::string content;
        for (std::size_t index; (index = next.fetch_add(1)) < files.size();) {
            std::ifstream in(files[index].path, std::ios::binary);
            content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            mcpkit::analyze::ParseArena arena;  // closing it frees the parser and the tree
            TSParser* parser = mcpkit::analyze::ParseArena::new_parser();
            ts_parser_set_language(parser, mcpkit::analyze::grammar(files[index].language));
            TSTree* tree = ts_parser_parse_string(parser, nullptr, content.data(), uint32_t(content.size()));
            if (mcpkit::analyze::ParseArena::overflowed()) ts_tree_delete(tree);
            bytes += content.size();
        }
    };
    std::vector<std::thread> workers;
    for (unsigned i = 1; i < threads; ++i) workers.emplace_back(parse_all);
    parse_all();
    for (std::thread& worker : workers) worker.join();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%zu %ju %.3f\n", files.size(), bytes.load(), seconds);
}
