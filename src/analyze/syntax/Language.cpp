#include "analyze/syntax/Language.hpp"

#include "analyze/grammars/Grammars.hpp"

#include <algorithm>
#include <string>

namespace mcpkit::analyze {

std::string_view name(Language language) {
    switch (language) {
    case Language::c: return "c";
    case Language::cpp: return "cpp";
    case Language::python: return "python";
    case Language::javascript: return "javascript";
    case Language::typescript: return "typescript";
    case Language::tsx: return "tsx";
    case Language::go: return "go";
    case Language::rust: return "rust";
    case Language::java: return "java";
    }
    return "unknown";
}

namespace {
std::string_view extension_of(std::string_view path) {
    auto slash = path.find_last_of('/');
    std::string_view file = slash == std::string_view::npos ? path : path.substr(slash + 1);
    auto dot = file.find_last_of('.');
    if (dot == std::string_view::npos || dot == 0) return {};
    return file.substr(dot + 1);
}
}  // namespace

std::string_view cloc_name(Language language, std::string_view path) {
    switch (language) {
    case Language::c: return "C";
    case Language::cpp: {
        auto extension = extension_of(path);
        if (extension == "h" || extension == "hh" || extension == "hpp" || extension == "hxx" || extension == "H")
            return "C/C++ Header";
        return "C++";
    }
    case Language::python: return "Python";
    case Language::javascript: return "JavaScript";
    case Language::typescript: return "TypeScript";
    case Language::tsx: return "TypeScript";
    case Language::go: return "Go";
    case Language::rust: return "Rust";
    case Language::java: return "Java";
    }
    return "unknown";
}

std::optional<Language> parse_language(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    for (Language language : all_languages)
        if (lower == name(language)) return language;
    if (lower == "c++" || lower == "cxx") return Language::cpp;
    if (lower == "py" || lower == "python3") return Language::python;
    if (lower == "js" || lower == "jsx" || lower == "node") return Language::javascript;
    if (lower == "ts") return Language::typescript;
    if (lower == "golang") return Language::go;
    if (lower == "rs") return Language::rust;
    return std::nullopt;
}

std::optional<Language> language_for_path(std::string_view path) {
    auto extension = extension_of(path);
    if (extension.empty()) return std::nullopt;
    if (extension == "c") return Language::c;
    if (extension == "h" || extension == "cc" || extension == "cpp" || extension == "cxx" || extension == "c++" ||
        extension == "hh" || extension == "hpp" || extension == "hxx" || extension == "C" || extension == "H" ||
        extension == "inl" || extension == "ipp" || extension == "tcc")
        return Language::cpp;
    if (extension == "py" || extension == "pyi" || extension == "pyw") return Language::python;
    if (extension == "js" || extension == "mjs" || extension == "cjs" || extension == "jsx") return Language::javascript;
    if (extension == "ts" || extension == "mts" || extension == "cts") return Language::typescript;
    if (extension == "tsx") return Language::tsx;
    if (extension == "go") return Language::go;
    if (extension == "rs") return Language::rust;
    if (extension == "java") return Language::java;
    return std::nullopt;
}

const TSLanguage* grammar(Language language) {
    switch (language) {
    case Language::c: return tree_sitter_c();
    case Language::cpp: return tree_sitter_cpp();
    case Language::python: return tree_sitter_python();
    case Language::javascript: return tree_sitter_javascript();
    case Language::typescript: return tree_sitter_typescript();
    case Language::tsx: return tree_sitter_tsx();
    case Language::go: return tree_sitter_go();
    case Language::rust: return tree_sitter_rust();
    case Language::java: return tree_sitter_java();
    }
    return nullptr;
}

}  // namespace mcpkit::analyze
