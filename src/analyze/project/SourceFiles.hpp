#pragma once
// Which files of a tree analyze reads, and reading one: discovery with the default excludes,
// globs, languages, depth and size limit (links handled like cloc), and a read that tells whether
// the file changed under it.

#include "analyze/project/AnalysisCache.hpp"
#include "analyze/project/Glob.hpp"
#include "analyze/project/ProjectAnalyzer.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::analyze {

struct Candidate {
    std::string path;  ///< relative to the root
    Language language;
    std::int64_t bytes;
};

/// The files to analyse under `root`, sorted by path; what is left out for a reason worth telling
/// (too large, a link out of the tree) goes to `skipped`.
std::vector<Candidate> find_files(const std::filesystem::path& root, const ProjectOptions& options,
                                  const std::vector<Glob>& include, const std::vector<Glob>& exclude,
                                  std::vector<SkippedFile>& skipped);

FileIdentity identity_of(const struct stat& status);

/// Reads the whole file; empty on success, else why not. `identity` is set only when the file did
/// not change while it was read (same identity before and after, every byte of it read), so the
/// cache never ties an identity to content it did not have.
std::string read_file(const std::string& path, std::string& content, std::optional<FileIdentity>& identity);

/// A NUL in the first 8 KB, as git and cloc decide.
bool looks_binary(std::string_view content);

}  // namespace mcpkit::analyze
