#pragma once
// Glob patterns over relative paths, as .gitignore-style tools write them: `*` and `?` stay within
// one path segment, `**` spans any number of segments, `{a,b}` is an alternative. A pattern with
// no slash matches the file name at any depth (`*.py`), like git does.

#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::analyze {

class Glob {
public:
    explicit Glob(std::string_view pattern);
    bool matches(std::string_view relative_path) const;
    const std::string& pattern() const { return pattern_; }

private:
    std::string pattern_;
    std::vector<std::string> alternatives_;  ///< braces expanded
    bool basename_only_ = false;
};

/// Why `pattern` cannot be used, or empty: unbalanced braces, an empty pattern.
std::string glob_problem(std::string_view pattern);

}  // namespace mcpkit::analyze
