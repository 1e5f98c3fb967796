#include "analyze/project/SourceFile.hpp"

#include "analyze/project/SourceFiles.hpp"
#include "analyze/syntax/ParseArena.hpp"

#include <filesystem>

namespace mcpkit::analyze {

namespace fs = std::filesystem;

std::string read_source_text(const std::string& path, std::int64_t max_bytes, std::string_view field) {
    using Kind = SourceFileError::Kind;
    std::error_code error;
    std::string name = std::string(field) + ": ";
    if (!fs::exists(path, error)) throw SourceFileError(Kind::not_found, name + "no such file: " + path);
    if (!fs::is_regular_file(path, error))
        throw SourceFileError(Kind::not_a_file, name + path + " is not a regular file" +
                                                    (fs::is_directory(path, error) ? " (use analyze-project for directories)" : ""));
    auto size = static_cast<std::int64_t>(fs::file_size(path, error));
    if (size > max_bytes)
        throw SourceFileError(Kind::too_large, name + path + " is " + std::to_string(size) + " bytes; files over " +
                                                   std::to_string(max_bytes) + " are not analysed (--max-file-bytes)");
    std::string content;
    std::optional<FileIdentity> identity;
    if (std::string problem = read_file(path, content, identity); !problem.empty())
        throw SourceFileError(Kind::unreadable, name + "cannot read " + path + ": " + problem);
    return content;
}

Language source_language(const std::string& path, const std::optional<std::string>& requested, std::string_view field) {
    using Kind = SourceFileError::Kind;
    if (requested) {
        auto language = parse_language(*requested);
        if (!language)
            throw SourceFileError(Kind::unknown_language, std::string(field) + " \"" + *requested +
                                                              "\" is not supported: use c, cpp, python, javascript, "
                                                              "typescript, tsx, go, rust or java");
        return *language;
    }
    auto language = language_for_path(path);
    if (!language)
        throw SourceFileError(Kind::unknown_language,
                              "Cannot tell the language of " + path +
                                  " from its extension (.c .h .cc .cpp .hpp .py .js .mjs .ts .tsx .go .rs .java)");
    return *language;
}

FileReport analyze_file(const std::string& path, const std::optional<std::string>& language, const FileAnalysisOptions& options,
                        std::int64_t max_bytes) {
    Language chosen = source_language(path, language, "language");
    std::string source = read_source_text(path, max_bytes, "path");
    ParseArena arena;
    return analyze_source(path, source, chosen, options);
}

}  // namespace mcpkit::analyze
