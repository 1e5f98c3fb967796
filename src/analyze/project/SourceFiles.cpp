#include "analyze/project/SourceFiles.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace mcpkit::analyze {

namespace fs = std::filesystem;

namespace {

// Directories that hold no one's source: version control, dependencies, caches, virtualenvs.
constexpr std::string_view default_excluded_directories[] = {
    ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache",
    ".cache", ".idea", ".vscode"};

}  // namespace

FileIdentity identity_of(const struct stat& status) {
    return {.size = std::int64_t(status.st_size),
            .mtime_ns = std::int64_t(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec,
            .ctime_ns = std::int64_t(status.st_ctim.tv_sec) * 1'000'000'000 + status.st_ctim.tv_nsec,
            .inode = std::int64_t(status.st_ino)};
}

std::string read_file(const std::string& path, std::string& content, std::optional<FileIdentity>& identity) {
    int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return std::strerror(errno);
    struct stat before {};
    if (::fstat(descriptor, &before) != 0) {
        std::string error = std::strerror(errno);
        ::close(descriptor);
        return error;
    }
    content.resize(static_cast<std::size_t>(before.st_size));
    std::size_t filled = 0;
    while (filled < content.size()) {
        ssize_t got = ::read(descriptor, content.data() + filled, content.size() - filled);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            std::string error = std::strerror(errno);
            ::close(descriptor);
            return error;
        }
        if (got == 0) break;  // shorter than it was: it changed under us; what was read is analysed
        filled += static_cast<std::size_t>(got);
    }
    content.resize(filled);
    struct stat after {};
    if (::fstat(descriptor, &after) == 0 && identity_of(before) == identity_of(after) &&
        filled == static_cast<std::size_t>(before.st_size))
        identity = identity_of(before);
    ::close(descriptor);
    return {};
}

bool looks_binary(std::string_view content) {
    return content.substr(0, 8192).find('\0') != std::string_view::npos;
}

std::vector<Candidate> find_files(const fs::path& root, const ProjectOptions& options, const std::vector<Glob>& include,
                                  const std::vector<Glob>& exclude, std::vector<SkippedFile>& skipped) {
    std::vector<Candidate> found;
    std::error_code error;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error), end;
    if (error) throw std::invalid_argument("cannot read " + root.string() + ": " + error.message());
    const fs::path canonical_root = fs::weakly_canonical(root, error);
    for (; it != end; it.increment(error)) {
        if (error) break;
        const fs::directory_entry& entry = *it;
        std::string relative = entry.path().lexically_relative(root).generic_string();
        auto matches_any = [&](const std::vector<Glob>& globs) {
            return std::any_of(globs.begin(), globs.end(), [&](const Glob& glob) { return glob.matches(relative); });
        };
        if (entry.is_symlink(error)) {
            // Like cloc, a link to a directory is not followed (no loops, nothing counted twice) and
            // a link to a file is counted, but only when the file is inside the tree: the report is
            // about the project's files, not about whatever its links reach.
            if (entry.is_directory(error)) {
                it.disable_recursion_pending();
                continue;
            }
            fs::path target = fs::weakly_canonical(entry.path(), error);
            auto [tree_end, target_end] = std::mismatch(canonical_root.begin(), canonical_root.end(), target.begin(), target.end());
            if (error || tree_end != canonical_root.end()) {
                if (language_for_path(relative)) skipped.push_back({relative, "symbolic link to a file outside the tree"});
                continue;
            }
        }
        if (entry.is_directory(error)) {
            std::string name = entry.path().filename().string();
            bool excluded = options.default_excludes &&
                            std::find(std::begin(default_excluded_directories), std::end(default_excluded_directories),
                                      name) != std::end(default_excluded_directories);
            if (excluded || matches_any(exclude) || (options.max_depth >= 0 && it.depth() >= options.max_depth))
                it.disable_recursion_pending();
            continue;
        }
        if (!entry.is_regular_file(error)) continue;
        auto language = language_for_path(relative);
        if (!language) continue;
        if (!options.languages.empty() && !options.languages.count(*language)) continue;
        if (!include.empty() && !matches_any(include)) continue;
        if (matches_any(exclude)) continue;
        auto bytes = static_cast<std::int64_t>(entry.file_size(error));
        if (bytes > options.max_file_bytes) {
            skipped.push_back({relative, "larger than " + std::to_string(options.max_file_bytes) + " bytes"});
            continue;
        }
        found.push_back({relative, *language, bytes});
        // Stop walking at once: a tree that large (the whole disk) would take minutes to list.
        if (options.max_files && found.size() > options.max_files)
            throw std::invalid_argument(root.string() + " holds more than " + std::to_string(options.max_files) +
                                        " source files, more than one index takes: give the project's own directory");
    }
    std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.path < b.path; });
    return found;
}

fs::path tree_root(const std::string& root_text, std::string_view field) {
    std::error_code error;
    fs::path root = fs::weakly_canonical(fs::path(root_text), error);
    if (error || !fs::is_directory(root, error))
        throw std::invalid_argument(std::string(field) + " " + root_text + " is not a directory that can be read" +
                                    (error ? " (" + error.message() + ")" : std::string()));
    return root;
}

std::unique_ptr<AnalysisCache> open_cache(const std::string& path, const std::string& variant, std::vector<std::string>& warnings) {
    if (path.empty()) return nullptr;
    try {
        return std::make_unique<AnalysisCache>(path, variant);
    } catch (const std::runtime_error& error) {
        warnings.push_back(std::string(error.what()) + "; this run did without it");
        return nullptr;
    }
}

void compile_globs(const ProjectOptions& options, std::vector<Glob>& include, std::vector<Glob>& exclude) {
    for (const std::string& pattern : options.include) {
        if (auto problem = glob_problem(pattern); !problem.empty())
            throw std::invalid_argument("include pattern \"" + pattern + "\" " + problem);
        include.emplace_back(pattern);
    }
    for (const std::string& pattern : options.exclude) {
        if (auto problem = glob_problem(pattern); !problem.empty())
            throw std::invalid_argument("exclude pattern \"" + pattern + "\" " + problem);
        exclude.emplace_back(pattern);
    }
}

namespace {

bool matches_any(const std::vector<Glob>& globs, std::string_view path) {
    return std::any_of(globs.begin(), globs.end(), [&](const Glob& glob) { return glob.matches(path); });
}

}  // namespace

bool takes_directory(const std::string& relative_directory, const ProjectOptions& options, const std::vector<Glob>& exclude) {
    int depth = 0;
    std::string_view path = relative_directory;
    for (std::size_t start = 0; start <= path.size();) {
        std::size_t slash = path.find('/', start);
        if (slash == std::string_view::npos) slash = path.size();
        std::string_view name = path.substr(start, slash - start);
        std::string_view so_far = path.substr(0, slash);
        if (options.default_excludes &&
            std::find(std::begin(default_excluded_directories), std::end(default_excluded_directories), name) !=
                std::end(default_excluded_directories))
            return false;
        if (matches_any(exclude, so_far)) return false;
        ++depth;
        start = slash + 1;
    }
    return options.max_depth < 0 || depth <= options.max_depth;
}

bool takes_file(const std::string& relative_path, const ProjectOptions& options, const std::vector<Glob>& include,
                const std::vector<Glob>& exclude) {
    auto language = language_for_path(relative_path);
    if (!language || (!options.languages.empty() && !options.languages.count(*language))) return false;
    if (std::size_t slash = relative_path.rfind('/'); slash != std::string::npos) {
        if (!takes_directory(relative_path.substr(0, slash), options, exclude)) return false;
    }
    if (!include.empty() && !matches_any(include, relative_path)) return false;
    return !matches_any(exclude, relative_path);
}

bool regular_file_inside(const fs::path& root, const std::string& absolute_path) {
    // Every component is resolved, not just the last: a directory of the tree replaced by a link
    // to one outside would otherwise lead there (the watcher sees the files under it change).
    std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(absolute_path.c_str(), nullptr), &std::free);
    if (!resolved) return false;
    std::string_view target(resolved.get());
    std::string_view base = root.native();
    while (base.size() > 1 && base.back() == '/') base.remove_suffix(1);  // "/tree/" names /tree too
    bool inside = base == "/" || (target.size() > base.size() && target.compare(0, base.size(), base) == 0 &&
                                  target[base.size()] == '/');
    struct stat status {};
    return inside && ::stat(resolved.get(), &status) == 0 && S_ISREG(status.st_mode);
}

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string known_content_hash(AnalysisCache* cache, const std::string& absolute_path) {
    struct stat status {};
    if (!cache || ::stat(absolute_path.c_str(), &status) != 0) return {};
    return cache->known_hash(absolute_path, identity_of(status)).value_or(std::string());
}

std::string read_source_file(AnalysisCache* cache, const std::string& absolute_path, std::int64_t run_started_ns,
                             std::string& content, std::string& hash) {
    std::optional<FileIdentity> identity;
    if (std::string error = read_file(absolute_path, content, identity); !error.empty()) return "unreadable: " + error;
    if (looks_binary(content)) return "binary content";
    if (!cache) return {};
    hash = content_hash(content);
    // Unchanged while it was read, and modified before this run began by a margin wider than a
    // clock tick: the identity can stand for this content next time.
    if (identity && identity->mtime_ns < run_started_ns - 2'000'000'000) cache->remember(absolute_path, *identity, hash);
    return {};
}

}  // namespace mcpkit::analyze
