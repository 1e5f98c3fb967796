// A whole tree: file discovery with globs and depth, the dependency graph and its cycles, the
// content-hash cache, and cancellation.

#include "analyze/project/AnalysisCache.hpp"
#include "analyze/project/ProjectAnalyzer.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>

using namespace mcpkit::analyze;
namespace fs = std::filesystem;

namespace {

class TempTree {
public:
    TempTree() : root_(fs::temp_directory_path() / ("analyze-tree-" + std::to_string(::getpid()) + "-" +
                                                    testing::UnitTest::GetInstance()->current_test_info()->name())) {
        fs::remove_all(root_);
        fs::create_directories(root_);
    }
    ~TempTree() { fs::remove_all(root_); }
    void write(const std::string& path, const std::string& content) {
        fs::create_directories((root_ / path).parent_path());
        std::ofstream(root_ / path) << content;
    }
    std::string root() const { return root_.string(); }

private:
    fs::path root_;
};

const FileReport* file(const ProjectReport& report, std::string_view path) {
    for (const FileReport& candidate : report.files)
        if (candidate.path == path) return &candidate;
    return nullptr;
}

}  // namespace

TEST(ProjectAnalyzer, FindsImportCyclesAcrossLanguages) {
    TempTree tree;
    tree.write("pkg/__init__.py", "");
    tree.write("pkg/a.py", "from . import b\n");
    tree.write("pkg/b.py", "import pkg.a\n");
    tree.write("pkg/c.py", "import json\nfrom pkg import a\n");
    tree.write("src/x.h", "#include \"y.h\"\n");
    tree.write("src/y.h", "#include \"x.h\"\n#include <vector>\n");
    ProjectReport report = analyze_project(tree.root(), {});
    ASSERT_EQ(report.files.size(), 6u);
    ASSERT_TRUE(report.dependencies);
    std::vector<std::vector<std::string>> cycles;
    for (const auto& cycle : report.dependencies->cycles) {
        std::vector<std::string> paths;
        for (int index : cycle) paths.push_back(report.files[static_cast<std::size_t>(index)].path);
        cycles.push_back(paths);
    }
    EXPECT_EQ(cycles, (std::vector<std::vector<std::string>>{{"pkg/a.py", "pkg/b.py"}, {"src/x.h", "src/y.h"}}));
    EXPECT_EQ(report.dependencies->external.at("json"), 1);
    EXPECT_EQ(report.dependencies->external.at("vector"), 1);
}

TEST(ProjectAnalyzer, GlobsLanguagesAndDepthChooseTheFiles) {
    TempTree tree;
    tree.write("a.py", "x = 1\n");
    tree.write("deep/b.py", "x = 1\n");
    tree.write("deep/deeper/c.py", "x = 1\n");
    tree.write("deep/d.go", "package d\n");
    tree.write("node_modules/e.js", "x = 1\n");
    tree.write("tests/test_a.py", "x = 1\n");
    ProjectOptions options;
    options.exclude = {"tests/"};
    options.languages = {Language::python};
    options.max_depth = 1;
    ProjectReport report = analyze_project(tree.root(), options);
    std::vector<std::string> paths;
    for (const FileReport& found : report.files) paths.push_back(found.path);
    EXPECT_EQ(paths, (std::vector<std::string>{"a.py", "deep/b.py"}));

    ProjectOptions only_deep;
    only_deep.include = {"deep/**/*.py"};
    report = analyze_project(tree.root(), only_deep);
    ASSERT_EQ(report.files.size(), 2u);
    EXPECT_TRUE(file(report, "deep/deeper/c.py"));
    EXPECT_THROW(analyze_project(tree.root() + "/missing", {}), std::invalid_argument);
    ProjectOptions bad;
    bad.include = {"src/{a,b"};
    EXPECT_THROW(analyze_project(tree.root(), bad), std::invalid_argument);
}

TEST(ProjectAnalyzer, UnchangedFilesComeFromTheCacheWithTheSameReport) {
    TempTree tree;
    for (int i = 0; i < 20; ++i)
        tree.write("m" + std::to_string(i) + ".py", "def f(x):\n    return 1 if x else " + std::to_string(i) + "\n");
    ProjectOptions options;
    options.cache_path = tree.root() + "/../analyze-cache-" + std::to_string(::getpid()) + ".sqlite";
    ProjectReport first = analyze_project(tree.root(), options);
    ProjectReport second = analyze_project(tree.root(), options);
    EXPECT_EQ(first.cache_hits, 0u);
    EXPECT_EQ(second.cache_hits, 20u);
    ASSERT_EQ(second.files.size(), 20u);
    EXPECT_EQ(boost::json::serialize(to_json(first.files[3])), boost::json::serialize(to_json(second.files[3])));
    tree.write("m3.py", "def f(x):\n    return 2\n");
    ProjectReport third = analyze_project(tree.root(), options);
    EXPECT_EQ(third.cache_hits, 19u) << "the changed file is analysed again";
    EXPECT_EQ(file(third, "m3.py")->functions[0].cyclomatic, 1);
    fs::remove(options.cache_path);
}

TEST(ProjectAnalyzer, CancellationStopsTheRunAndSaysSo) {
    TempTree tree;
    // The first finished file is reported at once, whatever the machine's speed; the worker would
    // have to analyse the other 199 files before the watching thread wakes for the run to end
    // uncancelled.
    std::string body;
    for (int line = 0; line < 40; ++line) body += "def f" + std::to_string(line) + "(x):\n    return x and " + std::to_string(line) + "\n";
    for (int i = 0; i < 200; ++i) tree.write("m" + std::to_string(i) + ".py", body);
    std::atomic<bool> cancel{false};
    ProjectOptions options;
    options.threads = 1;
    options.cancel = &cancel;
    std::size_t reports = 0;
    options.progress = [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, 200u);
        ++reports;
        if (done > 0) cancel.store(true);
    };
    ProjectReport report = analyze_project(tree.root(), options);
    EXPECT_TRUE(report.cancelled);
    EXPECT_LT(report.files.size(), 200u);
    EXPECT_GE(reports, 1u);
}

TEST(ProjectAnalyzer, WithoutDetailsFilesKeepOnlyHotspotCandidatesAndTheSameTotals) {
    TempTree tree;
    // 30 functions per file, of rising complexity: f29 is the most complex.
    std::string body;
    for (int i = 0; i < 30; ++i) {
        body += "def f" + std::to_string(i) + "(x):\n";
        for (int branch = 0; branch < i; ++branch) body += "    if x == " + std::to_string(branch) + ":\n        return 0\n";
        body += "    return 1\n";
    }
    for (int i = 0; i < 3; ++i) tree.write("m" + std::to_string(i) + ".py", "class K:\n    pass\n" + body);
    ProjectOptions full;
    ProjectOptions slim;
    slim.keep_details = false;
    slim.hotspot_candidates = 5;
    ProjectReport detailed = analyze_project(tree.root(), full);
    ProjectReport trimmed = analyze_project(tree.root(), slim);
    ASSERT_EQ(trimmed.files.size(), 3u);
    for (const FileReport& report : trimmed.files) {
        EXPECT_EQ(report.functions.size(), 5u);
        EXPECT_TRUE(report.types.empty());
        EXPECT_EQ(report.function_totals.count, 30);
        EXPECT_EQ(report.function_totals.max_cyclomatic, 30);
        EXPECT_EQ(report.functions.back().name, "f29") << "kept in source order, the most complex last";
    }
    EXPECT_EQ(trimmed.totals.functions, detailed.totals.functions);
    EXPECT_EQ(trimmed.totals.cyclomatic, detailed.totals.cyclomatic);
    boost::json::object a = to_json(detailed, 5, FileDetail::summary);
    boost::json::object b = to_json(trimmed, 5, FileDetail::summary);
    EXPECT_EQ(a.at("hotspots"), b.at("hotspots"));
    EXPECT_EQ(a.at("files"), b.at("files"));
    EXPECT_EQ(a.at("totals"), b.at("totals"));
}

TEST(ProjectAnalyzer, AnEditThatKeepsSizeAndModificationTimeIsStillSeen) {
    TempTree tree;
    std::string path = tree.root() + "/m.py";
    tree.write("m.py", "def f(x):\n    return 1 if x else 2\n");
    auto an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
    fs::last_write_time(path, an_hour_ago);
    EXPECT_EQ(analyze_project(tree.root(), ProjectOptions{}).files.size(), 1u) << "an old file and no cache at all";
    ProjectOptions options;
    options.cache_path = tree.root() + "/../analyze-cache-stat-" + std::to_string(::getpid()) + ".sqlite";
    ProjectReport first = analyze_project(tree.root(), options);
    EXPECT_EQ(first.cache_hits, 0u);
    ProjectReport second = analyze_project(tree.root(), options);
    EXPECT_EQ(second.cache_hits, 1u);
    // Same size, the old modification time put back (as cp -p, rsync -a or tar x do), different
    // text: the change time tells, so the file is read and analysed again.
    tree.write("m.py", "def g(x):\n    return 1 or x or 222\n");
    fs::last_write_time(path, an_hour_ago);
    ProjectReport third = analyze_project(tree.root(), options);
    EXPECT_EQ(third.cache_hits, 0u);
    EXPECT_EQ(file(third, "m.py")->functions[0].name, "g");
    fs::remove(options.cache_path);
}

TEST(AnalysisCache, AFileIsKnownByItsWholeIdentity) {
    std::string path = (fs::temp_directory_path() / ("analyze-cache-identity-" + std::to_string(::getpid()) + ".sqlite")).string();
    {
        AnalysisCache cache(path);
        FileIdentity identity{.size = 10, .mtime_ns = 1000, .ctime_ns = 2000, .inode = 42};
        cache.remember("/src/a.py", identity, "abc");
        cache.flush();
        EXPECT_EQ(cache.known_hash("/src/a.py", identity), "abc");
        FileIdentity changed = identity;
        changed.ctime_ns += 1;
        EXPECT_FALSE(cache.known_hash("/src/a.py", changed)) << "a new change time";
        changed = identity;
        changed.inode += 1;
        EXPECT_FALSE(cache.known_hash("/src/a.py", changed)) << "a file written anew";
        EXPECT_FALSE(cache.known_hash("/src/b.py", identity));
        EXPECT_TRUE(cache.write_error().empty());
    }
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
}

TEST(AnalysisCache, ReportsMadeWithOtherThresholdsAreNotServed) {
    TempTree tree;
    tree.write("m.py", "def f(x):\n    if x:\n        return 1\n    return 2\n");
    ProjectOptions options;
    options.cache_path = tree.root() + "/../analyze-cache-variant-" + std::to_string(::getpid()) + ".sqlite";
    options.file.thresholds.cyclomatic_warning = 1;
    ProjectReport strict = analyze_project(tree.root(), options);
    EXPECT_FALSE(file(strict, "m.py")->findings.empty());
    options.file.thresholds.cyclomatic_warning = 50;
    ProjectReport lenient = analyze_project(tree.root(), options);
    EXPECT_EQ(lenient.cache_hits, 0u);
    bool complexity_finding = false;
    for (const Finding& finding : file(lenient, "m.py")->findings) complexity_finding |= finding.rule == "high-complexity";
    EXPECT_FALSE(complexity_finding);
    EXPECT_EQ(analyze_project(tree.root(), options).cache_hits, 1u) << "the same thresholds again";
    fs::remove(options.cache_path);
}

TEST(ProjectAnalyzer, AnUnusableCacheIsAWarningNotAFailure) {
    TempTree tree;
    tree.write("m.py", "x = 1\n");
    tree.write("not-a-database.sqlite", "this is not SQLite, and long enough to be read as a header............\n");
    ProjectOptions options;
    options.cache_path = tree.root() + "/not-a-database.sqlite";
    ProjectReport report = analyze_project(tree.root(), options);
    EXPECT_EQ(report.files.size(), 1u);
    ASSERT_EQ(report.warnings.size(), 1u);
    EXPECT_NE(report.warnings[0].find("not-a-database.sqlite"), std::string::npos) << report.warnings[0];
}
