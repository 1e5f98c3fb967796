#pragma once
// An index that stays current: built once, then kept up to date by a RootWatcher, file by file,
// while queries read it under a shared lock. What the analyze server holds per tree.

#include "analyze/navigation/IndexBuilder.hpp"
#include "analyze/navigation/RootWatcher.hpp"

#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>

namespace mcpkit::analyze {

class LiveIndex {
public:
    /// Builds the index (throws like build_index) and starts watching. A cancelled build throws
    /// IndexCancelled.
    LiveIndex(const std::string& root, ProjectOptions options, bool watch = true);
    ~LiveIndex();

    struct Cancelled : std::runtime_error {
        Cancelled() : std::runtime_error("indexing was cancelled") {}
    };

    const std::string& root() const { return build_.root; }
    /// Runs `read` with the index, which no update changes meanwhile.
    template <class Read>
    auto read(Read&& read) const {
        std::shared_lock lock(mutex_);
        return read(build_);
    }
    /// Applies changed paths (relative to the root) now; the watcher calls this too.
    void apply(const std::vector<std::string>& paths);
    /// Why the index may miss changes (no watcher, the inotify limit), or empty.
    std::string watch_problem() const;
    /// Incremented by every apply() that changed something: tests and benchmarks wait on it.
    std::uint64_t generation() const { return generation_.load(); }

private:
    ProjectOptions options_;
    mutable std::shared_mutex mutex_;
    IndexBuild build_;
    std::unique_ptr<AnalysisCache> cache_;
    std::unique_ptr<RootWatcher> watcher_;
    std::atomic<std::uint64_t> generation_{0};
};

}  // namespace mcpkit::analyze
