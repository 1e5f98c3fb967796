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
#include <memory>
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

/// The directory `root` names, canonical; throws std::invalid_argument naming `field` when it is
/// not a directory that can be read.
std::filesystem::path tree_root(const std::string& root, std::string_view field);

/// The analysis cache at `path`, or none (when `path` is empty, or the cache cannot be opened: why
/// goes to `warnings`, since a run without its cache only costs time).
std::unique_ptr<AnalysisCache> open_cache(const std::string& path, const std::string& variant,
                                          std::vector<std::string>& warnings);

/// The options' include and exclude patterns, compiled; throws std::invalid_argument naming a bad one.
void compile_globs(const ProjectOptions& options, std::vector<Glob>& include, std::vector<Glob>& exclude);

/// Whether find_files would take this path (relative to the root), by its directories, depth,
/// language and the globs; its size and links are not looked at. For one file that changed.
bool takes_file(const std::string& relative_path, const ProjectOptions& options, const std::vector<Glob>& include,
                const std::vector<Glob>& exclude);

/// Whether find_files would look inside this directory (relative to the root): the default
/// excludes, the exclude globs and the depth.
bool takes_directory(const std::string& relative_directory, const ProjectOptions& options, const std::vector<Glob>& exclude);

/// Whether `absolute_path`, links followed, is a regular file inside `root` (itself canonical): a
/// link to a directory, or to anything outside the tree, is not (as find_files decides).
bool regular_file_inside(const std::filesystem::path& root, const std::string& absolute_path);

FileIdentity identity_of(const struct stat& status);

/// Reads the whole file; empty on success, else why not. `identity` is set only when the file did
/// not change while it was read (same identity before and after, every byte of it read), so the
/// cache never ties an identity to content it did not have.
std::string read_file(const std::string& path, std::string& content, std::optional<FileIdentity>& identity);

/// A NUL in the first 8 KB, as git and cloc decide.
bool looks_binary(std::string_view content);

/// Nanoseconds since the epoch, by the wall clock (file times are on it).
std::int64_t now_ns();

/// The content hash the cache recorded for this file's current identity (size, times, inode): the
/// file need not be read. Empty when there is no cache, or the file changed or is unknown.
std::string known_content_hash(AnalysisCache* cache, const std::string& absolute_path);

/// Reads a source file: empty on success, else why it is skipped ("unreadable: …", "binary
/// content"). With a cache it also hashes the content and remembers the identity, when the file was
/// modified long enough before the run (`run_started_ns`) that a rewrite within the same clock tick
/// cannot be taken for unchanged.
std::string read_source_file(AnalysisCache* cache, const std::string& absolute_path, std::int64_t run_started_ns,
                             std::string& content, std::string& hash);

}  // namespace mcpkit::analyze
