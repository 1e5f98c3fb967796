#include "analyze/project/DependencyGraph.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <unordered_map>

namespace mcpkit::analyze {

namespace {

std::string directory_of(const std::string& path) {
    auto slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string join(const std::string& directory, const std::string& relative) {
    std::vector<std::string> parts;
    auto push = [&](const std::string& path) {
        std::size_t start = 0;
        while (start <= path.size()) {
            auto slash = path.find('/', start);
            std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
            if (part == "..") {
                if (!parts.empty()) parts.pop_back();
            } else if (!part.empty() && part != ".") {
                parts.push_back(part);
            }
            if (slash == std::string::npos) break;
            start = slash + 1;
        }
    };
    push(directory);
    push(relative);
    std::string joined;
    for (const std::string& part : parts) joined += (joined.empty() ? "" : "/") + part;
    return joined;
}

class Resolver {
public:
    Resolver(const std::vector<FileReport>& files, const std::string& go_module) : files_(files), go_module_(go_module) {
        for (std::size_t i = 0; i < files.size(); ++i) {
            by_path_[files[i].path] = static_cast<int>(i);
            by_directory_[directory_of(files[i].path)].push_back(static_cast<int>(i));
            auto slash = files[i].path.find_last_of('/');
            by_name_[files[i].path.substr(slash == std::string::npos ? 0 : slash + 1)].push_back(static_cast<int>(i));
        }
    }

    std::vector<int> resolve(const FileReport& file, const Import& import) const {
        const std::string directory = directory_of(file.path);
        switch (file.language) {
        case Language::python: return python(directory, import.target);
        case Language::c:
        case Language::cpp: return include(directory, import.target);
        case Language::javascript:
        case Language::typescript:
        case Language::tsx: return script(directory, import.target);
        case Language::go: return go(import.target);
        case Language::rust: return import.kind == "mod" ? rust_mod(file.path, import.target) : std::vector<int>{};
        case Language::java: return java(import.target);
        }
        return {};
    }

private:
    std::vector<int> first_of(std::initializer_list<std::string> candidates) const {
        for (const std::string& candidate : candidates)
            if (auto found = by_path_.find(candidate); found != by_path_.end()) return {found->second};
        return {};
    }

    std::vector<int> python(const std::string& directory, const std::string& target) const {
        std::size_t dots = target.find_first_not_of('.');
        if (dots == std::string::npos) dots = target.size();
        std::string module = target.substr(dots);
        std::replace(module.begin(), module.end(), '.', '/');
        if (dots > 0) {  // relative: one dot is this package, each more goes up one
            std::string base = directory;
            for (std::size_t up = 1; up < dots; ++up) base = directory_of(base);
            return first_of({join(base, module + ".py"), join(base, module + "/__init__.py")});
        }
        // Absolute: from the project root, then from each enclosing directory (a source root).
        for (std::string base = directory;; base = directory_of(base)) {
            auto found = first_of({join(base, module + ".py"), join(base, module + "/__init__.py")});
            if (!found.empty() || base.empty()) return found;
        }
    }

    std::vector<int> include(const std::string& directory, const std::string& target) const {
        auto found = first_of({join(directory, target), join("", target), join("include", target), join("src", target)});
        if (!found.empty()) return found;
        // Anywhere in the tree whose path ends with the included path (include directories).
        auto slash = target.find_last_of('/');
        auto candidates = by_name_.find(target.substr(slash == std::string::npos ? 0 : slash + 1));
        if (candidates == by_name_.end()) return {};
        for (int index : candidates->second) {
            const std::string& path = files_[static_cast<std::size_t>(index)].path;
            if (path.size() >= target.size() && path.compare(path.size() - target.size(), target.size(), target) == 0 &&
                (path.size() == target.size() || path[path.size() - target.size() - 1] == '/'))
                return {index};
        }
        return {};
    }

    std::vector<int> script(const std::string& directory, const std::string& target) const {
        if (target.rfind("./", 0) != 0 && target.rfind("../", 0) != 0) return {};
        std::string base = join(directory, target);
        std::string stem = base;
        for (const char* extension : {".js", ".mjs", ".cjs", ".jsx"})
            if (stem.size() > std::strlen(extension) && stem.ends_with(extension)) {
                stem.resize(stem.size() - std::strlen(extension));  // TypeScript imports `./x.js` meaning x.ts
                break;
            }
        return first_of({base, stem + ".ts", stem + ".tsx", stem + ".js", stem + ".jsx", stem + ".mjs", stem + ".cjs",
                         base + "/index.ts", base + "/index.tsx", base + "/index.js"});
    }

    std::vector<int> go(const std::string& target) const {
        if (go_module_.empty() || target.rfind(go_module_, 0) != 0) return {};
        std::string directory = target.size() == go_module_.size() ? "" : target.substr(go_module_.size() + 1);
        auto found = by_directory_.find(directory);
        if (found == by_directory_.end()) return {};
        std::vector<int> files;
        for (int index : found->second)
            if (files_[static_cast<std::size_t>(index)].language == Language::go &&
                !files_[static_cast<std::size_t>(index)].path.ends_with("_test.go"))
                files.push_back(index);
        return files;
    }

    std::vector<int> rust_mod(const std::string& path, const std::string& name) const {
        std::string directory = directory_of(path);
        auto slash = path.find_last_of('/');
        std::string file = path.substr(slash == std::string::npos ? 0 : slash + 1);
        // `mod x;` in lib.rs, main.rs or mod.rs looks beside it; in a.rs, under a/.
        if (file != "lib.rs" && file != "main.rs" && file != "mod.rs") directory = join(directory, file.substr(0, file.size() - 3));
        return first_of({join(directory, name + ".rs"), join(directory, name + "/mod.rs")});
    }

    std::vector<int> java(const std::string& target) const {
        std::string path = target;
        if (path.ends_with(".*")) return {};
        std::replace(path.begin(), path.end(), '.', '/');
        path += ".java";
        return include("", path);
    }

    const std::vector<FileReport>& files_;
    std::string go_module_;
    std::unordered_map<std::string, int> by_path_;
    std::unordered_map<std::string, std::vector<int>> by_directory_;
    std::unordered_map<std::string, std::vector<int>> by_name_;
};

// Tarjan's strongly connected components, iteratively (deep import chains must not overflow the stack).
std::vector<std::vector<int>> find_cycles(std::size_t count, const std::vector<std::vector<int>>& adjacent,
                                          const std::set<int>& self_loops) {
    std::vector<int> index(count, -1), low(count, 0);
    std::vector<bool> on_stack(count, false);
    std::vector<int> stack;
    std::vector<std::vector<int>> cycles;
    int next_index = 0;
    for (std::size_t start = 0; start < count; ++start) {
        if (index[start] >= 0) continue;
        std::vector<std::pair<int, std::size_t>> work{{static_cast<int>(start), 0}};
        while (!work.empty()) {
            auto& [node, edge] = work.back();
            if (edge == 0 && index[static_cast<std::size_t>(node)] < 0) {
                index[static_cast<std::size_t>(node)] = low[static_cast<std::size_t>(node)] = next_index++;
                stack.push_back(node);
                on_stack[static_cast<std::size_t>(node)] = true;
            }
            const auto& next = adjacent[static_cast<std::size_t>(node)];
            if (edge < next.size()) {
                int target = next[edge++];
                if (index[static_cast<std::size_t>(target)] < 0) {
                    work.emplace_back(target, 0);
                } else if (on_stack[static_cast<std::size_t>(target)]) {
                    low[static_cast<std::size_t>(node)] =
                        std::min(low[static_cast<std::size_t>(node)], index[static_cast<std::size_t>(target)]);
                }
                continue;
            }
            if (low[static_cast<std::size_t>(node)] == index[static_cast<std::size_t>(node)]) {
                std::vector<int> component;
                int member;
                do {
                    member = stack.back();
                    stack.pop_back();
                    on_stack[static_cast<std::size_t>(member)] = false;
                    component.push_back(member);
                } while (member != node);
                if (component.size() > 1 || self_loops.count(node)) {
                    std::sort(component.begin(), component.end());
                    cycles.push_back(std::move(component));
                }
            }
            int finished = node;
            work.pop_back();
            if (!work.empty())
                low[static_cast<std::size_t>(work.back().first)] =
                    std::min(low[static_cast<std::size_t>(work.back().first)], low[static_cast<std::size_t>(finished)]);
        }
    }
    return cycles;
}

}  // namespace

DependencyGraph build_dependency_graph(const std::vector<FileReport>& files, const std::string& go_module) {
    DependencyGraph graph;
    Resolver resolver(files, go_module);
    std::vector<std::vector<int>> adjacent(files.size());
    std::set<int> self_loops;
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::set<int> targets;
        for (const Import& import : files[i].imports) {
            std::vector<int> resolved = resolver.resolve(files[i], import);
            if (resolved.empty()) {
                // A member that is no file is a name inside its module, which is already counted.
                if (!import.target.empty() && import.target[0] != '.' && import.kind != "member")
                    ++graph.external[import.target];
                continue;
            }
            targets.insert(resolved.begin(), resolved.end());
        }
        for (int target : targets) {
            if (target == static_cast<int>(i)) {
                // A Python package's __init__ importing its own names resolves to itself; not a cycle worth reporting.
                continue;
            }
            graph.edges.emplace_back(static_cast<int>(i), target);
            adjacent[i].push_back(target);
        }
    }
    graph.cycles = find_cycles(files.size(), adjacent, self_loops);
    std::sort(graph.cycles.begin(), graph.cycles.end(),
              [](const auto& a, const auto& b) { return a.size() != b.size() ? a.size() > b.size() : a < b; });
    return graph;
}

boost::json::object to_json(const DependencyGraph& graph, const std::vector<FileReport>& files, std::size_t max_edges) {
    namespace json = boost::json;
    json::array edges;
    for (const auto& [from, to] : graph.edges) {
        if (edges.size() >= max_edges) break;
        edges.push_back(json::array{json::string(files[static_cast<std::size_t>(from)].path),
                                    json::string(files[static_cast<std::size_t>(to)].path)});
    }
    json::array cycles;
    for (const auto& cycle : graph.cycles) {
        json::array members;
        for (int index : cycle) members.push_back(json::string(files[static_cast<std::size_t>(index)].path));
        cycles.push_back(std::move(members));
    }
    std::vector<std::pair<std::string, int>> external(graph.external.begin(), graph.external.end());
    std::sort(external.begin(), external.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    json::array top_external;
    for (std::size_t i = 0; i < external.size() && i < 50; ++i)
        top_external.push_back(json::object{{"module", external[i].first}, {"importedBy", external[i].second}});
    return {{"edgeCount", graph.edges.size()},
            {"edges", std::move(edges)},
            {"edgesTruncated", graph.edges.size() > max_edges},
            {"cycles", std::move(cycles)},
            {"externalModules", graph.external.size()},
            {"topExternal", std::move(top_external)}};
}

std::vector<ReachedFile> reachable_within(const DependencyGraph& graph, std::size_t file_count, int start, int max_steps,
                                          Direction direction) {
    std::vector<std::vector<int>> next(file_count);
    for (const auto& [from, to] : graph.edges) {
        if (direction == Direction::imports)
            next[static_cast<std::size_t>(from)].push_back(to);
        else
            next[static_cast<std::size_t>(to)].push_back(from);
    }
    // Breadth first, so each file is reported at its shortest distance.
    std::vector<int> steps(file_count, -1);
    steps[static_cast<std::size_t>(start)] = 0;
    std::vector<ReachedFile> reached;
    std::size_t frontier = 0;
    std::vector<int> queue{start};
    while (frontier < queue.size()) {
        int file = queue[frontier++];
        int distance = steps[static_cast<std::size_t>(file)];
        if (distance == max_steps) continue;
        for (int neighbour : next[static_cast<std::size_t>(file)]) {
            if (steps[static_cast<std::size_t>(neighbour)] >= 0) continue;
            steps[static_cast<std::size_t>(neighbour)] = distance + 1;
            reached.push_back({neighbour, distance + 1});
            queue.push_back(neighbour);
        }
    }
    return reached;
}

}  // namespace mcpkit::analyze
