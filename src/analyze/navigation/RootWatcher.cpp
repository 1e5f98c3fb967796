#include "analyze/navigation/RootWatcher.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <set>

namespace mcpkit::analyze {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t directory_events = IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
                                           IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW;
// A batch is handed over once nothing happened for this long, or this long after its first event.
constexpr auto quiet_period = std::chrono::milliseconds(40);
constexpr auto longest_wait = std::chrono::milliseconds(300);

}  // namespace

RootWatcher::RootWatcher(std::string root, Wanted wanted, Changes changes)
    : root_(std::move(root)), wanted_(std::move(wanted)), changes_(std::move(changes)) {
    inotify_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (inotify_ < 0 || wake_ < 0) {
        problem_ = std::string("cannot watch the tree for changes: ") + std::strerror(errno) +
                   "; answers reflect the files as they were indexed";
        return;
    }
    watch_tree("");
    thread_ = std::thread([this] { run(); });
}

RootWatcher::~RootWatcher() {
    if (wake_ >= 0) {
        std::uint64_t one = 1;
        [[maybe_unused]] ssize_t written = ::write(wake_, &one, sizeof one);
    }
    if (thread_.joinable()) thread_.join();
    if (inotify_ >= 0) ::close(inotify_);
    if (wake_ >= 0) ::close(wake_);
}

std::string RootWatcher::problem() const {
    std::lock_guard lock(mutex_);
    return problem_;
}

std::size_t RootWatcher::watched_directories() const {
    std::lock_guard lock(mutex_);
    return directories_.size();
}

// Watches `relative` and every wanted directory below it (not following links: no loops).
void RootWatcher::watch_tree(const std::string& relative) {
    std::vector<std::string> pending{relative};
    while (!pending.empty()) {
        std::string directory = std::move(pending.back());
        pending.pop_back();
        std::string absolute = directory.empty() ? root_ : root_ + "/" + directory;
        int descriptor = ::inotify_add_watch(inotify_, absolute.c_str(), directory_events);
        if (descriptor < 0) {
            if (errno == ENOSPC) {
                std::lock_guard lock(mutex_);
                problem_ = "the inotify watch limit is reached (fs.inotify.max_user_watches): changes under some "
                           "directories are not seen until the index is built again";
                return;
            }
            continue;  // gone already, or not readable
        }
        {
            std::lock_guard lock(mutex_);
            directories_[descriptor] = directory;
        }
        std::error_code error;
        for (fs::directory_iterator it(absolute, fs::directory_options::skip_permission_denied, error), end; !error && it != end;
             it.increment(error)) {
            if (it->is_symlink(error) || !it->is_directory(error)) continue;
            std::string child = directory.empty() ? it->path().filename().string()
                                                  : directory + "/" + it->path().filename().string();
            if (wanted_(child)) pending.push_back(child);
        }
    }
}

void RootWatcher::run() {
    std::set<std::string> batch;
    auto first_event = std::chrono::steady_clock::time_point::max();
    auto last_event = first_event;
    alignas(inotify_event) char buffer[64 * 1024];
    for (;;) {
        int timeout = -1;
        if (!batch.empty()) {
            auto now = std::chrono::steady_clock::now();
            auto due = std::min(last_event + quiet_period, first_event + longest_wait);
            timeout = due <= now ? 0 : static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(due - now).count()) + 1;
        }
        pollfd descriptors[2] = {{inotify_, POLLIN, 0}, {wake_, POLLIN, 0}};
        int ready = ::poll(descriptors, 2, timeout);
        if (ready < 0 && errno != EINTR) return;
        if (descriptors[1].revents) return;
        if (ready > 0 && descriptors[0].revents) {
            for (;;) {
                ssize_t got = ::read(inotify_, buffer, sizeof buffer);
                if (got <= 0) break;
                for (char* at = buffer; at < buffer + got;) {
                    auto* event = reinterpret_cast<inotify_event*>(at);
                    at += sizeof(inotify_event) + event->len;
                    if (event->mask & IN_Q_OVERFLOW) {
                        batch.insert("");  // too much at once: the whole tree
                        continue;
                    }
                    std::string directory;
                    {
                        std::lock_guard lock(mutex_);
                        auto found = directories_.find(event->wd);
                        if (found == directories_.end()) continue;
                        directory = found->second;
                        if (event->mask & IN_IGNORED) {
                            directories_.erase(found);
                            continue;
                        }
                    }
                    if (event->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
                        batch.insert(directory);
                        continue;
                    }
                    if (event->len == 0) continue;
                    std::string path = directory.empty() ? std::string(event->name) : directory + "/" + event->name;
                    if ((event->mask & IN_ISDIR) && (event->mask & (IN_CREATE | IN_MOVED_TO)) && wanted_(path)) watch_tree(path);
                    batch.insert(path);
                }
                auto now = std::chrono::steady_clock::now();
                if (first_event == std::chrono::steady_clock::time_point::max()) first_event = now;
                last_event = now;
            }
        }
        auto now = std::chrono::steady_clock::now();
        if (!batch.empty() && (now >= last_event + quiet_period || now >= first_event + longest_wait)) {
            std::vector<std::string> paths(batch.begin(), batch.end());
            batch.clear();
            first_event = last_event = std::chrono::steady_clock::time_point::max();
            try {
                changes_(paths);
            } catch (const std::exception&) {
                // The next change tries again; a watcher that dies would leave the index stale for good.
            }
        }
    }
}

}  // namespace mcpkit::analyze
