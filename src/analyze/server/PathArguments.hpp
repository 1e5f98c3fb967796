#pragma once
// Path arguments as the server may use them: NUL-free, resolved (symlinks and "..") and, when the
// server is confined, inside its root. Every file a tool reads passes through here, so a model
// in front of the server cannot read /etc/shadow or walk out with "../..".

#include <filesystem>
#include <string>
#include <string_view>

namespace mcpkit::analyze {

class PathArguments {
public:
    /// `root`: where relative paths start (empty: the working directory). `confined`: refuse paths
    /// that resolve outside it. Throws std::runtime_error when a confining root cannot be resolved.
    PathArguments(const std::string& root, bool confined);

    /// The absolute, resolved path for argument `field`; throws ToolError: 400 for a NUL byte or a
    /// symlink loop, 403 (naming the root) for a path outside a confining root.
    std::string resolve(std::string_view field, const std::string& text) const;

    bool confined() const { return confined_; }
    const std::filesystem::path& root() const { return root_; }

private:
    std::filesystem::path root_;  ///< resolved when confined; as given otherwise
    bool confined_;
};

/// Refuses a string an outside caller meant as a path when it holds a NUL byte: the system would
/// read it only up to the NUL ("a.py\u0000.js" would open a.py). Throws ToolError(400).
void refuse_nul(std::string_view field, std::string_view text);

}  // namespace mcpkit::analyze
