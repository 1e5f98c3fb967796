#include "mcp/PrivateFiles.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <pwd.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace mcp {
namespace fs = std::filesystem;

namespace {

std::string mode_text(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

[[noreturn]] void refuse(const fs::path& path, const std::string& why, const std::string& fix) {
    throw PrivateDirectoryError(path.string() + " " + why + "; " + fix);
}

/// Whether users other than us may create entries in a directory with this status (sticky /tmp
/// counts: anyone may create a name there first).
bool others_may_write(const struct stat& directory) {
    return directory.st_uid != ::geteuid() || (directory.st_mode & (S_IWGRP | S_IWOTH)) != 0;
}

/// Whether another user could rename a directory's entries (and so swap ours for theirs after we
/// checked it): one owned by someone other than us or root, or one others may write to without
/// the sticky bit.
bool others_may_replace_entries(const struct stat& directory) {
    if (directory.st_uid != ::geteuid() && directory.st_uid != 0) return true;
    return (directory.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (directory.st_mode & S_ISVTX) == 0;
}

void check_existing(const fs::path& path, const struct stat& status) {
    fs::path parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    struct stat parent_status {};
    bool parent_known = ::stat(parent.c_str(), &parent_status) == 0;
    if (!parent_known || others_may_replace_entries(parent_status))
        refuse(path, "is in " + parent.string() + ", where another user may replace it",
               "choose a directory of yours (set XDG_RUNTIME_DIR or XDG_STATE_HOME)");
    if (S_ISLNK(status.st_mode))
        refuse(path, "is a symbolic link, which another user may have planted",
               "remove it (rm " + path.string() + ") and run again");
    if (!S_ISDIR(status.st_mode)) refuse(path, "is not a directory", "remove it and run again");
    if (status.st_uid != ::geteuid())
        refuse(path, "belongs to user id " + std::to_string(status.st_uid) + ", not to you (" +
                         std::to_string(::geteuid()) + "), so that user can read what mcpkit keeps there",
               "ask them or an administrator to remove it, or set XDG_RUNTIME_DIR to a directory of yours");
    if ((status.st_mode & 077) == 0) return;
    if (others_may_write(parent_status))
        refuse(path, "has mode " + mode_text(status.st_mode) + " under the shared directory " + parent.string() +
                         ", so other users may have put files in it",
               "remove it (rm -r " + path.string() + ") and run again");
    if (::chmod(path.c_str(), 0700) != 0)
        refuse(path, std::string("has mode ") + mode_text(status.st_mode) + " and cannot be narrowed to 0700 (" +
                         std::strerror(errno) + ")",
               "run chmod 700 " + path.string());
}

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

}  // namespace

fs::path private_directory(const fs::path& path) {
    struct stat status {};
    if (::lstat(path.c_str(), &status) == 0) {
        check_existing(path, status);
        return path;
    }
    if (errno != ENOENT) refuse(path, std::string("cannot be inspected: ") + std::strerror(errno), "check its parent");
    // Parents are made the usual way (0777 less the umask); only the last component holds our
    // files, and its parent is checked below.
    if (path.has_parent_path() && !path.parent_path().empty()) {
        std::error_code ec;
        fs::create_directories(path.parent_path(), ec);
        if (ec) refuse(path.parent_path(), "cannot be created: " + ec.message(), "create it or choose another place");
    }
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
        refuse(path, std::string("cannot be created: ") + std::strerror(errno), "create it with mode 0700");
    // Whether we made it or another process raced us to the name, check what is there now.
    if (::lstat(path.c_str(), &status) != 0)
        refuse(path, std::string("vanished after it was created: ") + std::strerror(errno), "run again");
    check_existing(path, status);
    return path;
}

fs::path runtime_directory() {
    std::string base = environment("XDG_RUNTIME_DIR");
    return private_directory(base.empty() ? fs::path("/tmp/mcpkit-" + std::to_string(::geteuid()))
                                          : fs::path(base) / "mcpkit");
}

fs::path state_directory() {
    std::string state = environment("XDG_STATE_HOME");
    if (!state.empty()) return private_directory(fs::path(state) / "mcpkit");
    std::string home = environment("HOME");
    if (home.empty()) {
        if (const struct passwd* entry = ::getpwuid(::geteuid()); entry && entry->pw_dir && *entry->pw_dir)
            home = entry->pw_dir;
    }
    if (home.empty())
        throw PrivateDirectoryError("no place for mcpkit's state: neither XDG_STATE_HOME nor HOME is set and this "
                                    "user has no home directory; set XDG_STATE_HOME to a directory of yours");
    return private_directory(fs::path(home) / ".local" / "state" / "mcpkit");
}

void make_file_private(const fs::path& file) {
    struct stat status {};
    if (::lstat(file.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) return;
    if ((status.st_mode & 077) != 0) ::chmod(file.c_str(), status.st_mode & 0700);
}

void prepare_private_database(const fs::path& file) {
    if (file == ":memory:" || file.native().starts_with("file:")) return;
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        throw PrivateDirectoryError(file.string() + " cannot be opened: " + std::strerror(errno) +
                                    "; check the directory, or choose another path");
    struct stat status {};
    bool ours = ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_uid == ::geteuid();
    if (ours && (status.st_mode & 077) != 0) ::fchmod(fd, status.st_mode & 0700);
    ::close(fd);
    // Another user's file (made there first) would be theirs to read whatever we write into it.
    if (!ours)
        throw PrivateDirectoryError(file.string() + " is not a file of yours (user id " +
                                    std::to_string(status.st_uid) + "), so its owner could read it; remove it or "
                                                                    "choose another path");
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) make_file_private(file.string() + suffix);
}

}  // namespace mcp
