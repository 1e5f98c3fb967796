#include "analyze/project/FileWorkers.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace mcpkit::analyze {

std::size_t usable_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<std::size_t>(std::max(1, CPU_COUNT(&set)));
    return std::max(1u, std::thread::hardware_concurrency());
}

void run_file_work(const FileWork& work) {
    const std::size_t total = work.sizes.size();
    std::vector<std::size_t> schedule(total);
    for (std::size_t i = 0; i < total; ++i) schedule[i] = i;
    std::stable_sort(schedule.begin(), schedule.end(), [&](std::size_t a, std::size_t b) { return work.sizes[a] > work.sizes[b]; });

    std::mutex finished_mutex;
    std::condition_variable finished;
    std::atomic<std::size_t> next{0}, done{0};
    auto cancelled = [&] { return work.cancel && work.cancel->load(std::memory_order_relaxed); };
    // The first file and the last wake the watching thread at once instead of at its next tick:
    // progress shows as soon as there is any, and the end is not kept waiting.
    auto finish_one = [&] {
        std::size_t now_done = done.fetch_add(1) + 1;
        if (now_done == 1 || now_done == total) {
            std::lock_guard lock(finished_mutex);
            finished.notify_all();
        }
    };
    auto worker = [&] {
        for (;;) {
            std::size_t position = next.fetch_add(1);
            if (position >= total || cancelled()) return;
            std::size_t index = schedule[position];
            // One file's failure (out of memory on a huge one) is that file's, not the run's.
            try {
                work.job(index);
            } catch (const std::exception& error) {
                if (work.failed) work.failed(index, error.what());
            }
            finish_one();
        }
    };

    std::size_t thread_count = work.threads ? work.threads : usable_cores();
    thread_count = std::max<std::size_t>(1, std::min(thread_count, total));
    if (total <= 1) {
        worker();
    } else {
        std::vector<std::thread> workers;
        for (std::size_t i = 0; i < thread_count; ++i) workers.emplace_back(worker);
        bool first_reported = false;
        while (done.load() < total) {
            {
                std::unique_lock lock(finished_mutex);
                finished.wait_for(lock, std::chrono::milliseconds(100), [&] {
                    return done.load() >= total || (!first_reported && done.load() > 0);
                });
            }
            if (done.load() > 0) first_reported = true;
            if (cancelled()) {
                if (work.parse_cancel) work.parse_cancel->store(1);
                break;
            }
            try {
                if (work.progress) work.progress(done.load(), total);
            } catch (const std::exception&) {
                // Progress is a courtesy; a failing reporter must not leave the workers unjoined.
            }
        }
        for (std::thread& thread : workers) thread.join();
    }
    if (cancelled() && work.parse_cancel) work.parse_cancel->store(1);
    if (work.progress) work.progress(done.load(), total);
}

}  // namespace mcpkit::analyze
