#include "analyze/server/PathArguments.hpp"

#include "analyze/server/CallRunner.hpp"

#include <stdexcept>
#include <system_error>

namespace mcpkit::analyze {
namespace fs = std::filesystem;

void refuse_nul(std::string_view field, std::string_view text) {
    if (text.find('\0') != std::string_view::npos)
        throw ToolError(status_code::bad_request, std::string(field) +
                                                      " contains a NUL byte (\\u0000), which no file name can hold; "
                                                      "remove it");
}

PathArguments::PathArguments(const std::string& root, bool confined) : confined_(confined) {
    if (!confined) {
        root_ = root;
        return;
    }
    std::error_code error;
    root_ = fs::canonical(root.empty() ? fs::current_path() : fs::path(root), error);
    if (error) throw std::runtime_error("--root " + root + ": " + error.message());
}

std::string PathArguments::resolve(std::string_view field, const std::string& text) const {
    refuse_nul(field, text);
    fs::path candidate(text);
    if (candidate.is_relative() && !root_.empty()) candidate = root_ / candidate;
    std::error_code error;
    fs::path resolved = fs::weakly_canonical(candidate, error);
    if (error == std::errc::too_many_symbolic_link_levels)
        throw ToolError(status_code::bad_request, std::string(field) + ": symlink loop at " + candidate.string() +
                                                      " (a link that leads back to itself)");
    if (error) {
        if (confined_)
            throw ToolError(status_code::bad_request,
                            std::string(field) + ": cannot resolve " + candidate.string() + ": " + error.message());
        resolved = candidate.lexically_normal();
    }
    if (confined_) {
        fs::path inside = resolved.lexically_relative(root_);
        if (inside.empty() || *inside.begin() == "..")
            throw ToolError(status_code::forbidden,
                            std::string(field) + ": " + text + " is outside the server's root " + root_.string() +
                                " (symlinks and .. resolved); this server reads only files under it");
    }
    return resolved.string();
}

}  // namespace mcpkit::analyze
