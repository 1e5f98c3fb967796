#pragma once
// Work on many files at once: worker threads take files largest first (a big file picked up last
// would leave the others idle: longest-processing-time scheduling), while the calling thread
// reports progress and passes cancellation on to the parses in flight. Shared by the metrics
// report (ProjectAnalyzer) and the navigation index (IndexBuilder).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace mcpkit::analyze {

/// The cores this process may run on (its affinity), at least one.
std::size_t usable_cores();

struct FileWork {
    std::vector<std::int64_t> sizes;  ///< one per file: the order to take them in
    std::size_t threads = 0;          ///< 0: usable_cores()
    /// Does file `index`. An exception is caught and passed to `failed`.
    std::function<void(std::size_t index)> job;
    std::function<void(std::size_t index, const char* what)> failed;
    /// Called on the calling thread at most every 100 ms, on the first file done and at the end.
    std::function<void(std::size_t done, std::size_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
    /// Set to 1 when `cancel` is seen, for tree-sitter's cancellation flag in running parses.
    std::atomic<std::size_t>* parse_cancel = nullptr;
};

/// Returns once every file is done or, after cancellation, once the workers stopped.
void run_file_work(const FileWork& work);

}  // namespace mcpkit::analyze
