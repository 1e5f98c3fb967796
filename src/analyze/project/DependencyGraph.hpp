#pragma once
// Which project files import which: each import resolved to a file of the project by the
// language's own rules where they can be followed without a build system (Python packages and
// relative imports, quoted includes, relative JS/TS specifiers, Go module paths, Rust `mod`,
// Java packages). Imports that resolve to nothing in the tree are external.

#include "analyze/metrics/FileReport.hpp"

#include <boost/json/object.hpp>

#include <map>
#include <string>
#include <vector>

namespace mcpkit::analyze {

struct DependencyGraph {
    std::vector<std::pair<int, int>> edges;     ///< indexes into the file list: from imports to
    std::vector<std::vector<int>> cycles;       ///< strongly connected groups of two or more files, or one that imports itself
    std::map<std::string, int> external;        ///< module → how many files import it
};

/// `files` are the project's reports with paths relative to `root`; `go_module` is go.mod's module
/// path, if any.
DependencyGraph build_dependency_graph(const std::vector<FileReport>& files, const std::string& go_module);

boost::json::object to_json(const DependencyGraph& graph, const std::vector<FileReport>& files, std::size_t max_edges);

/// A file reachable from another by following imports, and how many import steps away it is.
struct ReachedFile {
    int file;
    int steps;
};

/// The files `start` reaches in at most `max_steps` import steps, nearest first: what it imports
/// (`Direction::imports`) or what imports it (`Direction::imported_by`), directly and through others.
enum class Direction { imports, imported_by };
std::vector<ReachedFile> reachable_within(const DependencyGraph& graph, std::size_t file_count, int start, int max_steps,
                                          Direction direction);

}  // namespace mcpkit::analyze
