#pragma once
// How `mcpkit review` finds the editor side. DIALECTIC_IPC_PATH comes first (the VS Code
// extension sets it for the terminals it opens), then a discovery file that a running panel
// writes: {"socket", "pid", "url"}. The variable alone was not enough in the original project:
// it reaches only terminals opened after the editor, and goes stale when the editor restarts.

#include "review/IpcClient.hpp"

#include <optional>
#include <string>

namespace mcpkit::review {

/// $XDG_RUNTIME_DIR/mcpkit, or /tmp/mcpkit-<uid> without it; created with mode 0700, and refused
/// (mcp::PrivateDirectoryError) when another user owns it, it is a symlink, or others may enter it.
std::string runtime_directory();
/// MCPKIT_REVIEW_DISCOVERY if set, else <runtime directory>/review-panel.json.
std::string discovery_file_path();
/// <runtime directory>/review.sock.
std::string default_socket_path();

struct DiscoveryRecord {
    std::string socket;
    long pid = 0;
    std::string url;  ///< the panel's web page, if it has one
};

/// Reads the discovery file; nullopt when it is missing, unreadable, or names a process that is gone.
std::optional<DiscoveryRecord> read_discovery_file(const std::string& path);
/// Writes it atomically with mode 0600. Throws std::runtime_error naming the path on failure.
void write_discovery_file(const std::string& path, const DiscoveryRecord& record);
/// Removes the file if it still names `pid` (a newer panel may have replaced it).
void remove_discovery_file(const std::string& path, long pid);

/// The sockets to try now: DIALECTIC_IPC_PATH, then the discovery file's.
SocketCandidates locate_panel();

}  // namespace mcpkit::review
