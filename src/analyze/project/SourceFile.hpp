#pragma once
// One source file analysed on its own: what the analyze-file tool and `mcpkit analyze report FILE`
// both answer, through the same checks (it exists, it is a regular file, not too large, of a
// language analyze reads) with the same messages.

#include "analyze/metrics/FileAnalyzer.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcpkit::analyze {

struct SourceFileError : std::runtime_error {
    enum class Kind { not_found, not_a_file, too_large, unknown_language, unreadable };
    SourceFileError(Kind kind, const std::string& message) : std::runtime_error(message), kind(kind) {}
    Kind kind;
};

/// The file's text; `field` names the argument in messages. Throws SourceFileError.
std::string read_source_text(const std::string& path, std::int64_t max_bytes, std::string_view field);

/// The language asked for by name, else the one the extension tells. Throws SourceFileError.
Language source_language(const std::string& path, const std::optional<std::string>& requested, std::string_view field);

/// Reads, checks and analyses one file. Throws SourceFileError.
FileReport analyze_file(const std::string& path, const std::optional<std::string>& language,
                        const FileAnalysisOptions& options, std::int64_t max_bytes);

}  // namespace mcpkit::analyze
