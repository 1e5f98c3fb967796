#pragma once
// Opens the editor at a reference: a command template such as `code -g {path}:{line}`, split like
// a shell would (quotes, backslashes) but run without one, so a path can never become a command.
// Placeholders: {path}, {line}, {end} (the end of a range, or the line).

#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::review {

/// Splits a command line into words; throws std::invalid_argument on an unclosed quote.
std::vector<std::string> split_command(std::string_view command);

class EditorLauncher {
public:
    /// Throws std::invalid_argument when the template is empty or malformed.
    explicit EditorLauncher(std::string_view command_template);

    std::vector<std::string> arguments_for(const std::string& path, int line, int end_line) const;
    /// Starts the editor and does not wait for it. Returns an error message, or "" once started.
    std::string open(const std::string& path, int line, int end_line) const;

private:
    std::vector<std::string> template_;
};

}  // namespace mcpkit::review
