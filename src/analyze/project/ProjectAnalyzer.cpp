#include "analyze/project/ProjectAnalyzer.hpp"

#include "analyze/project/AnalysisCache.hpp"
#include "analyze/project/FileWorkers.hpp"
#include "analyze/project/Glob.hpp"
#include "analyze/project/SourceFiles.hpp"
#include "analyze/syntax/ParseArena.hpp"

#include <boost/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace mcpkit::analyze {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// The settings a cached report depends on besides the content: the finding thresholds.
std::string thresholds_variant(const FindingThresholds& thresholds) {
    const FindingThresholds defaults;
    if (thresholds.cyclomatic_warning == defaults.cyclomatic_warning &&
        thresholds.cyclomatic_error == defaults.cyclomatic_error &&
        thresholds.cognitive_warning == defaults.cognitive_warning &&
        thresholds.function_lines_warning == defaults.function_lines_warning &&
        thresholds.nesting_warning == defaults.nesting_warning &&
        thresholds.maintainability_warning == defaults.maintainability_warning)
        return {};
    char text[128];
    std::snprintf(text, sizeof text, "t%d,%d,%d,%d,%d,%.17g", thresholds.cyclomatic_warning, thresholds.cyclomatic_error,
                  thresholds.cognitive_warning, thresholds.function_lines_warning, thresholds.nesting_warning,
                  thresholds.maintainability_warning);
    return text;
}

std::string read_go_module(const fs::path& root) {
    std::ifstream file(root / "go.mod");
    std::string line;
    while (std::getline(file, line)) {
        if (line.rfind("module ", 0) == 0) {
            std::string module = line.substr(7);
            while (!module.empty() && (module.back() == ' ' || module.back() == '\r')) module.pop_back();
            return module;
        }
    }
    return {};
}

// Keeps the `keep` best hotspot candidates and the most complex function, in source order.
void trim_to_hotspot_candidates(FileReport& file, std::size_t keep) {
    file.types.clear();
    file.types.shrink_to_fit();
    keep = std::max<std::size_t>(keep, 1);
    if (file.functions.size() <= keep) return;
    auto most_complex = std::max_element(file.functions.begin(), file.functions.end(),
                                         [](const FunctionMetrics& a, const FunctionMetrics& b) { return a.cyclomatic < b.cyclomatic; });
    std::swap(*most_complex, file.functions.front());
    std::partial_sort(file.functions.begin() + 1, file.functions.begin() + static_cast<std::ptrdiff_t>(keep),
                      file.functions.end(), [](const FunctionMetrics& a, const FunctionMetrics& b) {
                          return hotspot_score(a) > hotspot_score(b);
                      });
    file.functions.resize(keep);
    file.functions.shrink_to_fit();
    std::sort(file.functions.begin(), file.functions.end(),
              [](const FunctionMetrics& a, const FunctionMetrics& b) { return a.start_line < b.start_line; });
}

void add_to(LanguageTotals& totals, const FileReport& file) {
    ++totals.files;
    totals.lines += file.lines;
    totals.functions += static_cast<std::size_t>(file.function_totals.count);
    totals.cyclomatic += file.function_totals.cyclomatic;
    totals.maintainability_sum += file.maintainability_index;
}

json::object totals_json(const LanguageTotals& totals) {
    auto round2 = [](double value) { return std::round(value * 100.0) / 100.0; };
    return {{"files", totals.files},
            {"lines", to_json(totals.lines)},
            {"functions", totals.functions},
            {"averageCyclomatic",
             totals.functions ? round2(double(totals.cyclomatic) / double(totals.functions)) : 0.0},
            {"averageMaintainability", totals.files ? round2(totals.maintainability_sum / double(totals.files)) : 0.0}};
}

}  // namespace

ProjectReport analyze_project(const std::string& root_text, const ProjectOptions& options) {
    auto started = std::chrono::steady_clock::now();
    fs::path root = tree_root(root_text, "projectPath");
    std::vector<Glob> include, exclude;
    compile_globs(options, include, exclude);

    ProjectReport report;
    report.root = root.string();
    std::vector<Candidate> candidates = find_files(root, options, include, exclude, report.skipped);

    std::unique_ptr<AnalysisCache> cache = open_cache(options.cache_path, thresholds_variant(options.file.thresholds), report.warnings);

    std::vector<std::optional<FileReport>> results(candidates.size());
    std::vector<std::string> failures(candidates.size());
    std::atomic<std::size_t> cache_hits{0};
    std::atomic<std::size_t> parse_cancel{0};
    FileAnalysisOptions file_options = options.file;
    file_options.cancel = &parse_cancel;
    auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };

    const std::int64_t run_started_ns = now_ns();
    auto use_report = [&](std::size_t index, FileReport file) {
        if (!options.keep_details) trim_to_hotspot_candidates(file, options.hotspot_candidates);
        results[index] = std::move(file);
    };
    auto analyze_one = [&](std::size_t index, std::string& content) {
        const Candidate& candidate = candidates[index];
        std::string absolute = (root / candidate.path).string();
        // Unchanged identity (size, times, inode): the cache knows the content without reading it.
        if (std::string hash = known_content_hash(cache.get(), absolute); !hash.empty()) {
            if (auto cached = cache->find(hash, candidate.language, candidate.path)) {
                use_report(index, std::move(*cached));
                cache_hits.fetch_add(1, std::memory_order_relaxed);
                return;
            }
        }
        std::string hash;
        if (std::string error = read_source_file(cache.get(), absolute, run_started_ns, content, hash); !error.empty()) {
            failures[index] = error;
            return;
        }
        if (cache) {
            if (auto cached = cache->find(hash, candidate.language, candidate.path)) {
                use_report(index, std::move(*cached));
                cache_hits.fetch_add(1, std::memory_order_relaxed);
                return;
            }
        }
        FileReport file;
        {
            ParseArena arena;  // the tree is gone once the report is made
            file = analyze_source(candidate.path, content, candidate.language, file_options);
        }
        // A parse stopped by cancellation yields no report (nor a cache entry).
        if (parse_cancel.load() != 0 && cancelled()) return;
        if (cache && !file.parse_timed_out) cache->store(hash, file);
        use_report(index, std::move(file));
    };
    FileWork work;
    for (const Candidate& candidate : candidates) work.sizes.push_back(candidate.bytes);
    work.threads = options.threads;
    work.job = [&](std::size_t index) {
        std::string content;
        analyze_one(index, content);
    };
    work.failed = [&](std::size_t index, const char* what) {
        results[index].reset();
        failures[index] = std::string("analysis failed: ") + what;
    };
    work.progress = options.progress;
    work.cancel = options.cancel;
    work.parse_cancel = &parse_cancel;
    run_file_work(work);

    if (cache) {
        cache->flush();
        if (std::string error = cache->write_error(); !error.empty())
            report.warnings.push_back("the analysis cache " + options.cache_path + " was not updated: " + error);
    }

    report.cancelled = cancelled();
    report.cache_hits = cache_hits.load();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (results[i]) {
            report.files.push_back(std::move(*results[i]));
        } else if (!failures[i].empty()) {
            report.skipped.push_back({candidates[i].path, failures[i]});
        }
    }
    for (const FileReport& file : report.files) {
        add_to(report.by_language[std::string(cloc_name(file.language, file.path))], file);
        add_to(report.totals, file);
    }
    if (options.include_dependencies && !report.cancelled)
        report.dependencies = build_dependency_graph(report.files, read_go_module(root));
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
}

double hotspot_score(const FunctionMetrics& function) {
    return function.cyclomatic * (1.0 + std::log2(double(std::max(1, function.lines()))));
}

json::object to_json(const ProjectReport& report, std::size_t hotspot_count, FileDetail detail) {
    json::object by_language;
    for (const auto& [language, totals] : report.by_language) by_language[language] = totals_json(totals);

    struct Hotspot {
        const FileReport* file;
        const FunctionMetrics* function;
        double score;
    };
    std::vector<Hotspot> hotspots;
    std::map<std::string, int> findings_by_rule;
    json::array serious_findings;
    for (const FileReport& file : report.files) {
        for (const FunctionMetrics& function : file.functions)
            hotspots.push_back({&file, &function, hotspot_score(function)});
        for (const Finding& finding : file.findings) {
            ++findings_by_rule[finding.rule];
            if (finding.severity == "error" && serious_findings.size() < 50)
                serious_findings.push_back(json::object{{"location", file.path + ":" + std::to_string(finding.line)},
                                                        {"rule", finding.rule},
                                                        {"message", finding.message}});
        }
    }
    // Ties go by place, so the list is the same whatever the order files finished in.
    std::sort(hotspots.begin(), hotspots.end(), [](const Hotspot& a, const Hotspot& b) {
        if (a.score != b.score) return a.score > b.score;
        if (a.file->path != b.file->path) return a.file->path < b.file->path;
        return a.function->start_line < b.function->start_line;
    });
    json::array hotspot_json;
    for (std::size_t i = 0; i < hotspots.size() && i < hotspot_count; ++i) {
        const Hotspot& hotspot = hotspots[i];
        hotspot_json.push_back(json::object{
            {"location", hotspot.file->path + ":" + std::to_string(hotspot.function->start_line)},
            {"function", hotspot.function->name},
            {"cyclomatic", hotspot.function->cyclomatic},
            {"cognitive", hotspot.function->cognitive},
            {"lines", hotspot.function->lines()},
            {"maxNesting", hotspot.function->max_nesting}});
    }
    json::object rules;
    for (const auto& [rule, count] : findings_by_rule) rules[rule] = count;

    json::object out{{"root", report.root},
                     {"totals", totals_json(report.totals)},
                     {"byLanguage", std::move(by_language)},
                     {"hotspots", std::move(hotspot_json)},
                     {"findingsByRule", std::move(rules)},
                     {"errors", std::move(serious_findings)},
                     {"cacheHits", report.cache_hits},
                     {"cancelled", report.cancelled},
                     {"seconds", std::round(report.seconds * 1000.0) / 1000.0}};
    if (report.dependencies) out["dependencies"] = to_json(*report.dependencies, report.files, 2000);
    json::array skipped;
    for (const SkippedFile& file : report.skipped)
        skipped.push_back(json::object{{"path", file.path}, {"reason", file.reason}});
    out["skipped"] = std::move(skipped);
    if (!report.warnings.empty()) {
        json::array warnings;
        for (const std::string& warning : report.warnings) warnings.push_back(json::string(warning));
        out["warnings"] = std::move(warnings);
    }
    if (detail != FileDetail::none) {
        json::array files;
        for (const FileReport& file : report.files) {
            if (detail == FileDetail::full) {
                files.push_back(to_json(file));
                continue;
            }
            files.push_back(json::object{{"path", file.path},
                                         {"language", name(file.language)},
                                         {"lines", to_json(file.lines)},
                                         {"functions", file.function_totals.count},
                                         {"maxCyclomatic", file.function_totals.max_cyclomatic},
                                         {"maintainabilityIndex", std::round(file.maintainability_index * 100) / 100},
                                         {"findings", file.findings.size()}});
        }
        out["files"] = std::move(files);
    }
    return out;
}

}  // namespace mcpkit::analyze
