#pragma once
// Watching a tree for changes made by anyone (an editor, git, a build) with inotify: every
// directory is watched, new ones as they appear, and the paths that changed are handed over in
// batches once the tree has been quiet for a moment (a save is several events; a checkout is
// thousands). A thread of its own; stopped by the destructor.

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace mcpkit::analyze {

class RootWatcher {
public:
    /// Paths relative to the root: files that were written, created, moved or deleted, and
    /// directories that appeared or went (their files are not listed one by one).
    using Changes = std::function<void(const std::vector<std::string>& paths)>;
    /// Whether a directory (relative to the root) is worth watching: the index's excludes.
    using Wanted = std::function<bool(const std::string& directory)>;

    RootWatcher(std::string root, Wanted wanted, Changes changes);
    ~RootWatcher();
    RootWatcher(const RootWatcher&) = delete;
    RootWatcher& operator=(const RootWatcher&) = delete;

    /// Why the tree is not (or not wholly) watched, or empty: no inotify, the watch limit.
    std::string problem() const;
    std::size_t watched_directories() const;

private:
    void watch_tree(const std::string& relative);
    void run();

    std::string root_;
    Wanted wanted_;
    Changes changes_;
    int inotify_ = -1;
    int wake_ = -1;  ///< an eventfd the destructor writes to
    std::unordered_map<int, std::string> directories_;  ///< watch descriptor → relative path
    mutable std::mutex mutex_;                          ///< guards problem_ and directories_' size
    std::string problem_;
    std::thread thread_;
};

}  // namespace mcpkit::analyze
