#pragma once
// The languages analyze understands, how a file's name maps to one, and its tree-sitter grammar.

#include <optional>
#include <string_view>

struct TSLanguage;

namespace mcpkit::analyze {

enum class Language { c, cpp, python, javascript, typescript, tsx, go, rust, java };
inline constexpr int language_count = 9;

/// The name used in reports and accepted in arguments: "c", "cpp", "python", "javascript",
/// "typescript", "tsx", "go", "rust", "java".
std::string_view name(Language language);
/// The language cloc reports the file under ("C", "C++", "C/C++ Header", "Python", …): headers are
/// their own category in cloc, so this needs the path too.
std::string_view cloc_name(Language language, std::string_view path);
/// Accepts the names above and common aliases ("c++", "py", "js", "ts", "golang", "rs").
std::optional<Language> parse_language(std::string_view text);
/// By file extension, the way cloc maps them (.h is C++ here: C headers parse as C++ too).
std::optional<Language> language_for_path(std::string_view path);
const TSLanguage* grammar(Language language);
/// Every language, in enum order.
inline constexpr Language all_languages[] = {Language::c,          Language::cpp, Language::python,
                                             Language::javascript, Language::typescript, Language::tsx,
                                             Language::go,         Language::rust, Language::java};

}  // namespace mcpkit::analyze
