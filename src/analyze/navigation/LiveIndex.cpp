#include "analyze/navigation/LiveIndex.hpp"

#include "analyze/project/AnalysisCache.hpp"
#include "analyze/project/SourceFiles.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <set>

namespace mcpkit::analyze {

namespace fs = std::filesystem;

LiveIndex::LiveIndex(const std::string& root, ProjectOptions options, bool watch) : options_(std::move(options)) {
    build_ = build_index(root, options_);
    if (build_.cancelled) throw Cancelled();
    // Progress and cancellation belonged to the call that built it.
    options_.progress = nullptr;
    options_.cancel = nullptr;
    std::vector<std::string> warnings;
    cache_ = open_cache(options_.cache_path, {}, warnings);
    if (!watch) return;
    std::vector<Glob> include, exclude;
    compile_globs(options_, include, exclude);
    auto wanted = [this, exclude](const std::string& directory) { return takes_directory(directory, options_, exclude); };
    watcher_ = std::make_unique<RootWatcher>(build_.root, wanted, [this](const std::vector<std::string>& paths) { apply(paths); });
}

LiveIndex::~LiveIndex() { watcher_.reset(); }

void LiveIndex::apply(const std::vector<std::string>& paths) {
    // Directories expand into the files under them: those the index has, and those now on disk.
    // Every path may be a file, and may have been a directory: both are looked at, whatever it is
    // now (a file replaced by a directory, a directory moved away and a file put in its place).
    std::set<std::string> files;
    std::vector<std::string> directories;
    for (const std::string& path : paths) {
        struct stat status {};
        std::string absolute = path.empty() ? build_.root : build_.root + "/" + path;
        // lstat: a link to a directory is not walked into (the first walk does not either).
        if (::lstat(absolute.c_str(), &status) == 0 && S_ISDIR(status.st_mode)) directories.push_back(path);
        if (!path.empty()) files.insert(path);
    }
    CodeIndex& index = build_.index;
    {
        // A path the index has files under (a directory removed or moved away) names them all.
        std::shared_lock lock(mutex_);
        for (const std::string& path : paths) {
            std::string prefix = path.empty() ? std::string() : path + "/";
            for (std::uint32_t slot = 0; slot < index.slot_count(); ++slot)
                if (const FileSymbols* file = index.file(slot); file && file->path.rfind(prefix, 0) == 0 && file->path != path)
                    files.insert(file->path);
        }
    }
    if (!directories.empty()) {
        std::vector<Glob> include, exclude;
        compile_globs(options_, include, exclude);
        for (const std::string& directory : directories) {
            std::vector<SkippedFile> skipped;
            fs::path below = directory.empty() ? fs::path(build_.root) : fs::path(build_.root) / directory;
            std::error_code error;
            if (!fs::is_directory(below, error)) continue;
            try {
                for (const Candidate& candidate : find_files(below, options_, {}, {}, skipped)) {
                    std::string path = directory.empty() ? candidate.path : directory + "/" + candidate.path;
                    if (takes_file(path, options_, include, exclude)) files.insert(path);
                }
            } catch (const std::exception&) {
                // Gone while it was listed, or too large: what the index had under it is re-read below.
            }
        }
    }
    // Files are read and parsed while queries go on; only putting them in takes the write lock.
    std::vector<std::pair<std::string, std::optional<FileSymbols>>> fresh;
    for (const std::string& file : files) {
        try {
            fresh.emplace_back(file, current_symbols(build_.root, file, options_, cache_.get()));
        } catch (const std::exception&) {
            // One unreadable file must not stop the others from being brought up to date.
        }
    }
    if (cache_) cache_->flush();  // one transaction for the batch
    bool changed = false;
    {
        std::unique_lock lock(mutex_);
        for (auto& [path, symbols] : fresh) {
            if (symbols) {
                index.replace(std::move(*symbols));
                changed = true;
            } else if (index.file(path)) {
                index.remove(path);
                changed = true;
            }
        }
    }
    if (changed) generation_.fetch_add(1);
}

std::string LiveIndex::watch_problem() const {
    if (!watcher_) return "the tree is not watched: answers reflect the files as they were indexed";
    return watcher_->problem();
}

}  // namespace mcpkit::analyze
