#include "analyze/project/SourceFiles.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

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
    }
    std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.path < b.path; });
    return found;
}

}  // namespace mcpkit::analyze
