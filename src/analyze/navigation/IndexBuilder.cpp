#include "analyze/navigation/IndexBuilder.hpp"

#include "analyze/navigation/SymbolExtractor.hpp"
#include "analyze/navigation/SymbolsCodec.hpp"
#include "analyze/project/AnalysisCache.hpp"
#include "analyze/project/FileWorkers.hpp"
#include "analyze/project/SourceFiles.hpp"
#include "analyze/syntax/ParseArena.hpp"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace mcpkit::analyze {

namespace fs = std::filesystem;

namespace {

struct FileOutcome {
    std::optional<FileSymbols> symbols;
    std::string skipped;  ///< why not, when it was not indexed
    bool from_cache = false;
};

// One file: from the cache when its identity or content is known, else parsed (and stored).
FileOutcome index_file(const std::string& absolute, const std::string& relative, Language language, AnalysisCache* cache,
                       std::int64_t run_started_ns, const std::atomic<std::size_t>* parse_cancel) {
    FileOutcome outcome;
    auto from_cache = [&](const std::string& hash) -> bool {
        if (!cache || hash.empty()) return false;
        std::optional<std::string> bytes = cache->find_symbols(hash, language);
        if (!bytes) return false;
        std::optional<FileSymbols> symbols = decode_symbols(*bytes);
        if (!symbols || symbols->language != language) return false;  // damaged or foreign: parse again
        symbols->path = relative;
        outcome.symbols = std::move(symbols);
        outcome.from_cache = true;
        return true;
    };
    if (from_cache(known_content_hash(cache, absolute))) return outcome;
    std::string content, hash;
    if (std::string error = read_source_file(cache, absolute, run_started_ns, content, hash); !error.empty()) {
        outcome.skipped = error;
        return outcome;
    }
    if (from_cache(hash)) return outcome;
    FileSymbols symbols;
    {
        ParseArena arena;  // the tree is gone once its symbols are read
        symbols = extract_symbols(content, language, relative, parse_cancel);
    }
    if (symbols.parse_failed && parse_cancel && parse_cancel->load() != 0) return outcome;  // cancelled: nothing
    if (symbols.parse_failed) outcome.skipped = "parse timed out";
    if (cache && !symbols.parse_failed) cache->store_symbols(hash, language, encode_symbols(symbols));
    outcome.symbols = std::move(symbols);
    return outcome;
}

}  // namespace

IndexBuild build_index(const std::string& root_text, const ProjectOptions& options) {
    auto started = std::chrono::steady_clock::now();
    fs::path root = tree_root(root_text, "path");
    std::vector<Glob> include, exclude;
    compile_globs(options, include, exclude);

    IndexBuild build;
    build.root = root.string();
    std::vector<Candidate> candidates = find_files(root, options, include, exclude, build.skipped);

    std::unique_ptr<AnalysisCache> cache = open_cache(options.cache_path, {}, build.warnings);

    std::vector<FileOutcome> outcomes(candidates.size());
    std::atomic<std::size_t> parse_cancel{0};
    const std::int64_t run_started_ns = now_ns();
    FileWork work;
    for (const Candidate& candidate : candidates) work.sizes.push_back(candidate.bytes);
    work.threads = options.threads;
    work.job = [&](std::size_t i) {
        outcomes[i] = index_file((root / candidates[i].path).string(), candidates[i].path, candidates[i].language,
                                 cache.get(), run_started_ns, &parse_cancel);
    };
    work.failed = [&](std::size_t i, const char* what) {
        outcomes[i] = FileOutcome{};
        outcomes[i].skipped = std::string("indexing failed: ") + what;
    };
    work.progress = options.progress;
    work.cancel = options.cancel;
    work.parse_cancel = &parse_cancel;
    run_file_work(work);
    if (cache) {
        cache->flush();
        if (std::string failure = cache->write_error(); !failure.empty())
            build.warnings.push_back("the analysis cache " + options.cache_path + " was not updated: " + failure);
    }
    build.cancelled = options.cancel && options.cancel->load();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        FileOutcome& outcome = outcomes[i];
        if (!outcome.skipped.empty()) build.skipped.push_back({candidates[i].path, outcome.skipped});
        if (!outcome.symbols) continue;
        ++(outcome.from_cache ? build.files_from_cache : build.files_parsed);
        build.index.replace(std::move(*outcome.symbols));
    }
    build.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return build;
}

std::optional<FileSymbols> current_symbols(const std::string& root, const std::string& relative_path,
                                           const ProjectOptions& options, AnalysisCache* cache) {
    std::vector<Glob> include, exclude;
    compile_globs(options, include, exclude);
    std::string absolute = (fs::path(root) / relative_path).string();
    struct stat status {};
    // A link is followed only to a file inside the tree, as the first walk decides.
    bool present = regular_file_inside(fs::path(root), absolute) && ::stat(absolute.c_str(), &status) == 0 &&
                   status.st_size <= options.max_file_bytes && takes_file(relative_path, options, include, exclude);
    if (!present) return std::nullopt;
    FileOutcome outcome = index_file(absolute, relative_path, *language_for_path(relative_path), cache, now_ns(), nullptr);
    return std::move(outcome.symbols);
}

bool refresh_file(CodeIndex& index, const std::string& root, const std::string& relative_path, const ProjectOptions& options,
                  AnalysisCache* cache) {
    std::optional<FileSymbols> symbols = current_symbols(root, relative_path, options, cache);
    if (!symbols) {
        bool known = index.file(relative_path) != nullptr;
        index.remove(relative_path);
        return known;
    }
    index.replace(std::move(*symbols));
    return true;
}

}  // namespace mcpkit::analyze
