#pragma once
// Where a user's secrets and state may live: directories only that user can enter, checked before
// use. A directory under a shared parent (/tmp) can be made in advance by another local user, who
// then reads or replaces what we put there; so a directory is trusted only after lstat shows it is
// a real directory (no symlink), owned by us and closed to group and others.

#include "mcp/Export.hpp"

#include <filesystem>
#include <stdexcept>

namespace mcp {

/// A private directory could not be made or is not safe to use; what() names the path, what is
/// wrong and how to fix it.
class MCP_API PrivateDirectoryError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Creates `path` (and missing parents) with mode 0700, or checks the one that exists: a directory,
/// not a symlink, owned by this user. One of ours that group or others may enter is narrowed to
/// 0700 when its parent is private to us too (an old mcpkit made it 0755 in the home directory);
/// under a parent others may write to (/tmp) it is refused, since they may have planted files in it.
/// Returns `path`. Throws PrivateDirectoryError.
MCP_API std::filesystem::path private_directory(const std::filesystem::path& path);

/// $XDG_RUNTIME_DIR/mcpkit, or `/tmp/mcpkit-<uid>` without it; checked by private_directory.
MCP_API std::filesystem::path runtime_directory();

/// $XDG_STATE_HOME/mcpkit, or ~/.local/state/mcpkit (the home directory from HOME, or else the
/// password database); never a shared directory. Checked by private_directory.
MCP_API std::filesystem::path state_directory();

/// Narrows an existing file to owner-only (a file made by an older mcpkit may be 0644). Missing
/// files and symlinks are left alone.
MCP_API void make_file_private(const std::filesystem::path& file);

/// A database file others may not read: creates `file` empty with mode 0600 when missing (SQLite
/// then gives its -wal and -shm files the same mode), else narrows it and its -wal, -shm and
/// -journal companions. SQLite's names that are not files (":memory:", "file:" URIs) are left
/// alone. Throws PrivateDirectoryError when it cannot be created.
MCP_API void prepare_private_database(const std::filesystem::path& file);

}  // namespace mcp
