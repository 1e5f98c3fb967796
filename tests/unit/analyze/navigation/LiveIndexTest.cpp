// The index stays current: another process edits, adds and deletes files and directories, and
// the watcher brings the answers up to date. Also the stored form of symbols and change impact
// against a real git repository.

#include "NavigationFixtures.hpp"

#include "analyze/navigation/LiveIndex.hpp"
#include "analyze/navigation/SymbolsCodec.hpp"
#include "analyze/project/AnalysisCache.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace navigation_test;
namespace json = boost::json;

namespace {

// Another process changes the tree, as an editor or git would.
void shell(const std::string& command) { ASSERT_EQ(std::system(command.c_str()), 0) << command; }

// Waits (up to 20 s: a slow machine is not a failure) until the index has changed again.
bool wait_for_change(const LiveIndex& index, std::uint64_t generation) {
    for (int i = 0; i < 2000 && index.generation() == generation; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return index.generation() != generation;
}

std::size_t definitions_named(const LiveIndex& index, const std::string& name) {
    return index.read([&](const IndexBuild& build) { return build.index.definitions_named(name).size(); });
}

}  // namespace

TEST(LiveIndex, EditsByAnotherProcessReachTheIndex) {
    TempTree tree;
    tree.write("pkg/a.py", "def first():\n    pass\n");
    LiveIndex index(tree.root(), ProjectOptions{});
    ASSERT_EQ(index.watch_problem(), "");
    EXPECT_EQ(definitions_named(index, "first"), 1u);

    std::uint64_t generation = index.generation();
    shell("printf 'def second():\\n    pass\\n' > '" + tree.root() + "/pkg/a.py'");
    ASSERT_TRUE(wait_for_change(index, generation));
    EXPECT_EQ(definitions_named(index, "first"), 0u);
    EXPECT_EQ(definitions_named(index, "second"), 1u);

    generation = index.generation();
    shell("mkdir -p '" + tree.root() + "/new/deeper' && printf 'def third():\\n    second()\\n' > '" + tree.root() +
          "/new/deeper/b.py'");
    ASSERT_TRUE(wait_for_change(index, generation));
    EXPECT_EQ(definitions_named(index, "third"), 1u);
    index.read([&](const IndexBuild& build) { EXPECT_EQ(build.index.references_named("second").size(), 1u); });

    generation = index.generation();
    shell("rm -r '" + tree.root() + "/new'");
    ASSERT_TRUE(wait_for_change(index, generation));
    EXPECT_EQ(definitions_named(index, "third"), 0u);

    generation = index.generation();
    shell("mv '" + tree.root() + "/pkg' '" + tree.root() + "/moved'");
    ASSERT_TRUE(wait_for_change(index, generation));
    index.read([&](const IndexBuild& build) {
        EXPECT_EQ(build.index.file("pkg/a.py"), nullptr);
        EXPECT_NE(build.index.file("moved/a.py"), nullptr);
    });
}

TEST(LiveIndex, StoredSymbolsAreReusedAndDamageIsRefused) {
    TempTree tree;
    tree.write("m.go", "package m\n\n// Do does.\nfunc Do(x int) int { return helper(x) }\n\nfunc helper(x int) int { return x }\n");
    std::string cache = tree.root() + "/../" + fs::path(tree.root()).filename().string() + ".sqlite";
    ProjectOptions options;
    options.cache_path = cache;
    IndexBuild cold = build_index(tree.root(), options);
    EXPECT_EQ(cold.files_parsed, 1u);
    IndexBuild warm = build_index(tree.root(), options);
    EXPECT_EQ(warm.files_from_cache, 1u);
    EXPECT_EQ(warm.files_parsed, 0u);
    EXPECT_EQ(warm.index.definitions_named("Do").size(), 1u);
    fs::remove(cache);
    fs::remove(cache + "-wal");
    fs::remove(cache + "-shm");

    FileSymbols symbols = *cold.index.file("m.go");
    std::string bytes = encode_symbols(symbols);
    std::optional<FileSymbols> back = decode_symbols(bytes);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->strings, symbols.strings);
    ASSERT_EQ(back->definitions.size(), symbols.definitions.size());
    EXPECT_EQ(back->definitions[0].line, symbols.definitions[0].line);
    EXPECT_EQ(back->definitions[0].doc, symbols.definitions[0].doc);
    ASSERT_EQ(back->references.size(), symbols.references.size());
    EXPECT_EQ(back->references[0].enclosing, symbols.references[0].enclosing);
    // Every truncation, and a flipped id, is refused rather than read as something else.
    for (std::size_t size = 0; size < bytes.size(); ++size) EXPECT_FALSE(decode_symbols(bytes.substr(0, size))) << size;
    std::string damaged = bytes;
    damaged[damaged.size() - 4] = static_cast<char>(0x7F);
    EXPECT_FALSE(decode_symbols(damaged + "x"));
}

TEST(LiveIndex, ChangeImpactFollowsUsesFromAGitDiff) {
    TempTree tree;
    tree.write("lib.py", "def helper():\n    return 1\n\ndef gone():\n    return 2\n");
    tree.write("app.py", "from lib import helper, gone\n\ndef run():\n    return helper() + gone()\n");
    tree.write("tests/test_app.py", "from app import run\n\ndef test_run():\n    assert run() == 3\n");
    shell("cd '" + tree.root() + "' && git init -q && git -c user.email=t@t -c user.name=t add -A && "
          "git -c user.email=t@t -c user.name=t commit -q -m base");
    tree.write("lib.py", "def helper():\n    return 10\n");
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    NavigationAnswer impact = change_impact(context, {});
    std::vector<std::string> changed, removed, impacted, tests;
    for (const json::value& item : impact.data.at("changed").as_array()) changed.emplace_back(item.at("qualifiedName").as_string());
    for (const json::value& item : impact.data.at("removed").as_array()) removed.emplace_back(item.at("name").as_string());
    for (const json::value& item : impact.data.at("impacted").as_array()) impacted.emplace_back(item.at("qualifiedName").as_string());
    for (const json::value& item : impact.data.at("tests").as_array()) tests.emplace_back(item.as_string());
    EXPECT_EQ(changed, (std::vector<std::string>{"lib.helper"})) << impact.text;
    EXPECT_EQ(removed, (std::vector<std::string>{"gone"}));
    EXPECT_EQ(impacted, (std::vector<std::string>{"app.run", "tests.test_app.test_run"})) << impact.text;
    EXPECT_EQ(tests, (std::vector<std::string>{"tests/test_app.py"}));

    // The same from a diff given as text, and refusals of what is not a ref.
    ImpactSearch given;
    given.diff = "--- a/app.py\n+++ b/app.py\n@@ -4 +4 @@\n-    return helper() + gone()\n+    return helper()\n";
    impact = change_impact(context, given);
    ASSERT_EQ(impact.data.at("changed").as_array().size(), 1u);
    EXPECT_EQ(impact.data.at("changed").as_array()[0].at("qualifiedName").as_string(), "app.run");
    ImpactSearch option;
    option.base = "--output=/tmp/x";
    EXPECT_THROW(change_impact(context, option), std::invalid_argument);
    option.base = "HEAD:../secret";
    EXPECT_THROW(change_impact(context, option), std::invalid_argument);
}

// A repository is not trusted: its own filter drivers, fsmonitor hook and remotes must not run
// while its diff is read, whatever the driver is called (git cuts `-c name=value` at the first =).
TEST(LiveIndex, ChangeImpactRunsNoCommandTheRepositoryConfigures) {
    TempTree tree;
    tree.write("lib.py", "def helper():\n    return 1\n");
    std::string marker = tree.root() + "/../" + fs::path(tree.root()).filename().string() + ".ran";
    shell("cd '" + tree.root() + "' && git init -q && git -c user.email=t@t -c user.name=t add -A && "
          "git -c user.email=t@t -c user.name=t commit -q -m base");
    for (const std::string name : {"a=b", "plain", "with.dot"}) {
        shell("cd '" + tree.root() + "' && git config 'filter." + name + ".clean' 'touch " + marker + "; cat' && git config 'filter." +
              name + ".smudge' 'touch " + marker + "; cat' && git config 'filter." + name + ".required' true");
        tree.write(".gitattributes", "*.py filter=" + name + "\n");
        tree.write("lib.py", "def helper():\n    return 2 # " + name + "\n");
        IndexBuild build = tree.index();
        NavigationContext context{build.index, build.root};
        NavigationAnswer impact = change_impact(context, {});
        EXPECT_EQ(impact.data.at("changed").as_array().size(), 1u) << name << ": " << impact.text;
        EXPECT_FALSE(fs::exists(marker)) << "the filter driver " << name << " ran";
        fs::remove(marker);
    }
    fs::remove(tree.root() + "/.gitattributes");
    shell("cd '" + tree.root() + "' && git config core.fsmonitor 'touch " + marker + "; true'");
    IndexBuild build = tree.index();
    NavigationContext context{build.index, build.root};
    change_impact(context, {});
    EXPECT_FALSE(fs::exists(marker)) << "the fsmonitor hook ran";
    fs::remove(marker);
}

TEST(LiveIndex, LinksOutOfTheTreeAndFilesBecomingDirectoriesStayRight) {
    TempTree tree;
    // Another directory, beside the tree: what a link may point at.
    fs::path outside = fs::path(tree.root()).parent_path() / (fs::path(tree.root()).filename().string() + "-outside");
    fs::create_directories(outside / "dir");
    std::ofstream(outside / "secret.py") << "def secret():\n    pass\n";
    std::ofstream(outside / "dir/more.py") << "def more_secret():\n    pass\n";
    struct Cleanup {
        fs::path path;
        ~Cleanup() { fs::remove_all(path); }
    } cleanup{outside};
    tree.write("a.py", "def a():\n    pass\n");
    LiveIndex index(tree.root(), ProjectOptions{});

    std::uint64_t generation = index.generation();
    shell("ln -s '" + outside.string() + "/secret.py' '" + tree.root() + "/link.py' && ln -s '" + outside.string() +
          "/dir' '" + tree.root() + "/linkdir' && printf 'def b():\\n    pass\\n' > '" + tree.root() + "/b.py'");
    ASSERT_TRUE(wait_for_change(index, generation));  // b.py
    EXPECT_EQ(definitions_named(index, "b"), 1u);
    EXPECT_EQ(definitions_named(index, "secret"), 0u);
    EXPECT_EQ(definitions_named(index, "more_secret"), 0u);

    // A directory of the tree is replaced by a link to one outside: the files the index had under
    // it are read again, and not through the link.
    tree.write("sub/more.py", "def inner():\n    pass\n");
    for (int i = 0; i < 2000 && definitions_named(index, "inner") == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(definitions_named(index, "inner"), 1u);
    generation = index.generation();
    shell("rm -r '" + tree.root() + "/sub' && ln -s '" + outside.string() + "/dir' '" + tree.root() + "/sub'");
    ASSERT_TRUE(wait_for_change(index, generation));
    EXPECT_EQ(definitions_named(index, "inner"), 0u);
    EXPECT_EQ(definitions_named(index, "more_secret"), 0u);
    index.read([&](const IndexBuild& build) { EXPECT_EQ(build.index.file("sub/more.py"), nullptr); });

    // a.py becomes a directory with a file in it.
    generation = index.generation();
    shell("rm '" + tree.root() + "/a.py' && mkdir '" + tree.root() + "/a.py' && printf 'def c():\\n    pass\\n' > '" + tree.root() +
          "/a.py/c.py'");
    ASSERT_TRUE(wait_for_change(index, generation));
    for (int i = 0; i < 200 && definitions_named(index, "c") == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(definitions_named(index, "a"), 0u);
    EXPECT_EQ(definitions_named(index, "c"), 1u);
    index.read([&](const IndexBuild& build) { EXPECT_EQ(build.index.file("a.py"), nullptr); });
}
