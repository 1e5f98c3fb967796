// get-change-impact: what a change touches. The changed lines come from `git diff` of the working
// tree against a ref (or from a diff given as text); the definitions around them are the changed
// ones, definitions gone from a file since the ref are the removed ones, and their uses, followed
// back through the definitions they sit in, are the impact, with the files and tests it reaches.

#include "analyze/navigation/NavigationQueries.hpp"

#include "analyze/navigation/SymbolExtractor.hpp"
#include "analyze/syntax/ParseArena.hpp"

#include <boost/json.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

extern char** environ;

namespace mcpkit::analyze {
namespace json = boost::json;
using namespace navigation;

namespace {

/// Runs git in `directory` and returns its standard output; throws with its exit status otherwise
/// (exit 1 is a quiet "nothing found" for `config --get-regexp`, when `nothing_is_fine`).
/// `settings` are configuration keys and values that override the repository's own.
std::string run_git(const std::string& directory, std::vector<std::string> arguments, bool nothing_is_fine = false,
                    const std::vector<std::pair<std::string, std::string>>& settings = {}) {
    // The tree may not be the user's own, and its configuration must run nothing: no fsmonitor
    // hook, no transport (a partial clone would fetch missing objects through the repository's
    // remote, and so its ssh command), no prompt. The overrides go through GIT_CONFIG_KEY_n and
    // GIT_CONFIG_VALUE_n rather than `-c key=value`, which git cuts at the first '=', so a
    // filter driver named "a=b" would escape its override.
    std::vector<std::pair<std::string, std::string>> overrides{
        {"core.fsmonitor", "false"}, {"core.quotePath", "false"}, {"protocol.allow", "never"}};
    overrides.insert(overrides.end(), settings.begin(), settings.end());
    std::vector<std::string> environment;
    for (char** variable = environ; *variable; ++variable)
        if (std::string_view(*variable).substr(0, 4) != "GIT_") environment.emplace_back(*variable);  // no GIT_DIR, no caller's GIT_CONFIG_*
    environment.emplace_back("GIT_NO_LAZY_FETCH=1");
    environment.emplace_back("GIT_TERMINAL_PROMPT=0");
    environment.push_back("GIT_CONFIG_COUNT=" + std::to_string(overrides.size()));
    for (std::size_t i = 0; i < overrides.size(); ++i) {
        environment.push_back("GIT_CONFIG_KEY_" + std::to_string(i) + "=" + overrides[i].first);
        environment.push_back("GIT_CONFIG_VALUE_" + std::to_string(i) + "=" + overrides[i].second);
    }
    std::vector<char*> envp;
    for (std::string& variable : environment) envp.push_back(variable.data());
    envp.push_back(nullptr);

    std::vector<std::string> prefix{"git", "-C", directory};
    std::size_t command_at = prefix.size();
    arguments.insert(arguments.begin(), prefix.begin(), prefix.end());
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    int output[2];
    if (::pipe2(output, O_CLOEXEC) != 0) throw std::runtime_error("cannot run git: no pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    pid_t child = 0;
    int spawned = posix_spawnp(&child, "git", &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(output[1]);
    std::string text;
    if (spawned == 0) {
        char buffer[65536];
        for (ssize_t got; (got = ::read(output[0], buffer, sizeof buffer)) != 0;) {
            if (got < 0) {
                if (errno == EINTR) continue;
                break;
            }
            text.append(buffer, static_cast<std::size_t>(got));
        }
    }
    ::close(output[0]);
    if (spawned != 0) throw std::runtime_error("cannot run git (is it installed?)");
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (nothing_is_fine && WIFEXITED(status) && WEXITSTATUS(status) == 1) return {};
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::invalid_argument("git " + arguments[command_at] + " failed in " + directory + " (exit " +
                                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                    "): is it a git work tree, and is the ref right?");
    return text;
}

struct FileChange {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> lines;  ///< ranges of the new file, inclusive
    bool deleted = false;
    bool added = false;
};

// The files and new-side line ranges a unified diff changes (paths as the diff names them, less
// a/ and b/). A hunk's lines are counted, so a removed line that reads "-- x" is not a header.
std::map<std::string, FileChange> parse_diff(std::string_view diff) {
    std::map<std::string, FileChange> changes;
    std::string old_path, current;
    long old_left = 0, new_left = 0;  // lines of the current hunk still to come
    auto path_of = [](std::string_view text, std::string_view side) {
        std::string path(text);
        if (auto tab = path.find('\t'); tab != std::string::npos) path.resize(tab);  // git adds a tab after names with spaces
        if (path.substr(0, side.size()) == side) path.erase(0, side.size());
        return path;
    };
    while (!diff.empty()) {
        std::size_t end = diff.find('\n');
        std::string_view line = diff.substr(0, end);
        diff = end == std::string_view::npos ? std::string_view() : diff.substr(end + 1);
        if (old_left > 0 || new_left > 0) {
            char mark = line.empty() ? ' ' : line[0];
            if (mark == '-') --old_left;
            else if (mark == '+') --new_left;
            else if (mark != '\\') { --old_left; --new_left; }
            continue;
        }
        if (line.substr(0, 4) == "--- ") {
            old_path = path_of(line.substr(4), "a/");
        } else if (line.substr(0, 4) == "+++ ") {
            std::string path = path_of(line.substr(4), "b/");
            if (path == "/dev/null") {
                current = old_path;
                changes[current].deleted = true;
            } else {
                current = path;
                changes[current].added = old_path == "/dev/null";
            }
        } else if (line.substr(0, 3) == "@@ " && !current.empty()) {
            // @@ -a[,b] +c[,d] @@
            auto range = [&](char sign, long& start, long& count) {
                std::size_t at = line.find(sign, 3);
                if (at == std::string_view::npos) return false;
                std::string_view text = line.substr(at + 1, line.find(' ', at) - at - 1);
                std::size_t comma = text.find(',');
                try {
                    start = std::stol(std::string(text.substr(0, comma)));
                    count = comma == std::string_view::npos ? 1 : std::stol(std::string(text.substr(comma + 1)));
                } catch (const std::exception&) {
                    return false;
                }
                return start >= 0 && count >= 0 && count < 100000000;
            };
            long old_start = 0, old_count = 0, new_start = 0, new_count = 0;
            if (!range('-', old_start, old_count) || !range('+', new_start, new_count)) continue;
            old_left = old_count;
            new_left = new_count;
            // A pure deletion touches the definition around the place it was.
            auto first = static_cast<std::uint32_t>(std::max(new_start, 1L));
            changes[current].lines.push_back({first, new_count == 0 ? first : static_cast<std::uint32_t>(new_start + new_count - 1)});
        }
    }
    return changes;
}

bool is_test_path(std::string_view path) {
    std::string_view name = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
    auto has = [&](std::string_view part) { return path.find(part) != std::string_view::npos; };
    return name.find("_test.") != std::string_view::npos || name.rfind("test_", 0) == 0 || name.find(".test.") != std::string_view::npos ||
           name.find(".spec.") != std::string_view::npos || name.find("Test.java") != std::string_view::npos || has("/test/") ||
           has("/tests/") || path.rfind("test/", 0) == 0 || path.rfind("tests/", 0) == 0;
}

}  // namespace

NavigationAnswer change_impact(const NavigationContext& context, const ImpactSearch& search) {
    const CodeIndex& index = context.index;
    std::string diff = search.diff;
    bool from_git = diff.empty();
    if (from_git) {
        bool plain = !search.base.empty() && search.base[0] != '-' && search.base.size() < 200 &&
                     search.base.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./~^@{}-") ==
                         std::string::npos;
        if (!plain) throw std::invalid_argument("base must be a git ref such as HEAD, main, HEAD~2 or a commit");
        // A repository's own filter drivers would run on every file diffed: clean and smudge are
        // set to cat for each one configured, and a long-running filter process is refused.
        std::vector<std::pair<std::string, std::string>> settings;
        // -z: each entry is "key\nvalue\0", since a driver's name may hold spaces.
        std::string filters =
            run_git(context.root, {"config", "-z", "--get-regexp", "^filter\\..*\\.(clean|smudge|process)$"}, true);
        for (std::size_t start = 0; start < filters.size();) {
            std::size_t end = filters.find('\0', start);
            std::string entry = filters.substr(start, end - start);
            std::string key = entry.substr(0, entry.find('\n'));
            if (key.size() > 8 && key.substr(key.size() - 8) == ".process")
                throw std::invalid_argument("the repository configures a filter process (" + key +
                                            "); get-change-impact does not run it: pass the change as diff instead");
            if (!key.empty()) settings.emplace_back(key, "cat");
            if (end == std::string::npos) break;
            start = end + 1;
        }
        diff = run_git(context.root,
                       {"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--unified=0", "--relative",
                        search.base, "--"},
                       false, settings);
        // Files git does not track yet are wholly new.
        std::string untracked = run_git(context.root, {"ls-files", "--others", "--exclude-standard"});
        for (std::size_t start = 0; start < untracked.size();) {
            std::size_t end = untracked.find('\n', start);
            std::string path = untracked.substr(start, end - start);
            if (!path.empty()) diff += "--- /dev/null\n+++ b/" + path + "\n@@ -0,0 +1,1000000 @@\n";
            if (end == std::string::npos) break;
            start = end + 1;
        }
    }
    std::map<std::string, FileChange> changes = parse_diff(diff);

    std::set<SymbolId> changed;
    json::array changed_json, removed_json;
    std::vector<std::pair<std::string, std::string>> removed;  // path, name: uses of it are now broken
    NavigationAnswer answer;
    for (const auto& [path, change] : changes) {
        auto slot = index.slot_of(path);
        if (slot) {
            for (const auto& [first, last] : change.lines) {
                // Every definition overlapping the range, innermost ones included.
                const FileSymbols& file = *index.file(*slot);
                for (std::uint32_t i = 0; i < file.definitions.size(); ++i) {
                    const Definition& definition = file.definitions[i];
                    if (definition.line <= last && first <= definition.end_line) {
                        // A type whose member changed is not itself changed: its member is.
                        bool has_changed_child = false;
                        for (std::uint32_t j = i + 1; j < file.definitions.size() && file.definitions[j].line <= definition.end_line; ++j)
                            if (file.definitions[j].parent == static_cast<std::int32_t>(i) && file.definitions[j].line <= last &&
                                first <= file.definitions[j].end_line)
                                has_changed_child = true;
                        if (!has_changed_child) changed.insert({*slot, i});
                    }
                }
            }
        }
        // What the file defined at the base and no longer does.
        if (from_git && !change.added && language_for_path(path)) {
            std::string old_source;
            try {
                // As large as the index reads (a blob of the history is parsed like a file).
                std::string size = run_git(context.root, {"cat-file", "-s", search.base + ":./" + path});
                if (std::stoll(size) > std::int64_t{4} << 20) continue;
                old_source = run_git(context.root, {"cat-file", "blob", search.base + ":./" + path});  // plumbing: no text conversion
            } catch (const std::exception&) {
                continue;
            }
            FileSymbols before;
            {
                ParseArena arena;
                before = extract_symbols(old_source, *language_for_path(path), path);
            }
            const FileSymbols* now = slot ? index.file(*slot) : nullptr;
            for (const Definition& definition : before.definitions) {
                std::string_view name = before.text(definition.name), container = before.text(definition.container);
                bool still = now && std::any_of(now->definitions.begin(), now->definitions.end(), [&](const Definition& current) {
                                 return now->text(current.name) == name && now->text(current.container) == container;
                             });
                if (still) continue;
                removed.push_back({path, std::string(name)});
                removed_json.push_back(json::object{{"name", name}, {"container", container}, {"kind", analyze::name(definition.kind)},
                                                    {"path", path}, {"line", definition.line}});
            }
        }
    }
    for (SymbolId id : changed) changed_json.push_back(definition_json(context, id));

    // Uses, followed outwards through what they sit in.
    std::map<SymbolId, std::pair<int, SymbolId>> reached;  // definition → depth, reached from
    std::set<std::string> files, tests;
    std::vector<SymbolId> frontier(changed.begin(), changed.end());
    auto note_file = [&](const std::string& path) {
        files.insert(path);
        if (is_test_path(path)) tests.insert(path);
    };
    for (SymbolId id : changed) note_file(index.file(id.file)->path);
    auto users_of = [&](std::string_view name, const std::function<bool(const Resolution&)>& means) {
        std::vector<SymbolId> users;
        for (SymbolId reference : index.references_named(name)) {
            Resolution meaning = index.resolve(reference);
            if (!means(meaning)) continue;
            note_file(index.file(reference.file)->path);
            if (auto within = enclosing_definition(index, reference)) users.push_back(*within);
        }
        return users;
    };
    // Uses of removed definitions are broken now: they start the walk too.
    for (const auto& [path, name] : removed)
        for (SymbolId user : users_of(name, [](const Resolution& meaning) { return meaning.candidates.empty(); }))
            if (!reached.count(user) && !changed.count(user) && reached.size() < search.limit) {
                reached[user] = {1, user};
                frontier.push_back(user);
            }
    for (int depth = 1; depth <= search.depth && !frontier.empty() && reached.size() < search.limit; ++depth) {
        std::vector<SymbolId> next;
        for (SymbolId from : frontier) {
            std::string_view name = index.text(from.file, index.definition(from).name);
            for (SymbolId user : users_of(name, [&](const Resolution& meaning) {
                     return std::find(meaning.candidates.begin(), meaning.candidates.end(), from) != meaning.candidates.end();
                 })) {
                if (changed.count(user) || reached.count(user) || user == from) continue;
                if (reached.size() >= search.limit) break;
                reached[user] = {depth, from};
                next.push_back(user);
            }
        }
        frontier = std::move(next);
    }
    json::array impacted;
    std::vector<std::pair<SymbolId, std::pair<int, SymbolId>>> ordered(reached.begin(), reached.end());
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
        return a.second.first != b.second.first ? a.second.first < b.second.first : a.first < b.first;
    });
    for (const auto& [id, how] : ordered) {
        json::object item = definition_json(context, id);
        item["depth"] = how.first;
        item["via"] = context.index.qualified_name(how.second);
        impacted.push_back(std::move(item));
        if (index.text(id.file, index.definition(id).name).substr(0, 4) == "Test" || index.text(id.file, index.definition(id).name).substr(0, 5) == "test_")
            tests.insert(index.file(id.file)->path);
    }

    answer.text = std::to_string(changed.size()) + " changed definitions, " + std::to_string(removed.size()) + " removed, " +
                  std::to_string(reached.size()) + " reached through their uses (depth " + std::to_string(search.depth) + "), in " +
                  std::to_string(files.size()) + " files, " + std::to_string(tests.size()) + " of them tests\n";
    for (SymbolId id : changed) answer.text += "  changed " + location(index, id) + " " + index.qualified_name(id) + "\n";
    for (const auto& [path, name] : removed) answer.text += "  removed " + path + " " + name + "\n";
    for (const auto& [id, how] : ordered)
        answer.text += "  " + std::string(static_cast<std::size_t>(how.first) * 2, ' ') + "uses it: " + location(index, id) + " " +
                       index.qualified_name(id) + "\n";
    for (const std::string& test : tests) answer.text += "  test " + test + "\n";
    answer.summary = std::to_string(changed.size()) + " changed, " + std::to_string(reached.size()) + " impacted, " +
                     std::to_string(tests.size()) + " test files";
    json::array files_json, tests_json;
    for (const std::string& file : files) files_json.push_back(json::string(file));
    for (const std::string& test : tests) tests_json.push_back(json::string(test));
    answer.data = json::object{{"base", from_git ? json::value(search.base) : json::value(nullptr)},
                               {"changedFiles", changes.size()},
                               {"changed", std::move(changed_json)},
                               {"removed", std::move(removed_json)},
                               {"impacted", std::move(impacted)},
                               {"truncated", reached.size() >= search.limit},
                               {"files", std::move(files_json)},
                               {"tests", std::move(tests_json)}};
    return answer;
}

}  // namespace mcpkit::analyze
