#include "review/References.hpp"

#include <filesystem>
#include <fstream>

namespace mcpkit::review {

namespace {

bool is_path_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '.' ||
           c == '_' || c == '-' || c == '+' || c == '@' || c == '~';
}

bool looks_like_path(std::string_view path) {
    if (path.empty() || path.front() == '-' || path.size() > 4096) return false;
    bool letter = false, slash = false, extension = false;
    for (std::size_t i = 0; i < path.size(); ++i) {
        char c = path[i];
        if (!is_path_char(c)) return false;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) letter = true;
        if (c == '/') slash = true;
        if (c == '.' && i > 0 && i + 1 < path.size() && path[i - 1] != '.' && path[i + 1] != '/' && path[i + 1] != '.')
            extension = true;
    }
    return letter && (slash || extension);
}

/// Digits to a line number; 0 when not a positive number that fits.
int parse_line(std::string_view digits) {
    if (digits.empty() || digits.size() > 9) return 0;
    int value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return 0;
        value = value * 10 + (c - '0');
    }
    return value;
}

bool is_leading_punctuation(char c) { return c == '(' || c == '[' || c == '{' || c == '<' || c == '"' || c == '\'' || c == '`' || c == '*' || c == '_'; }
bool is_trailing_punctuation(char c) {
    return c == ')' || c == ']' || c == '}' || c == '>' || c == '"' || c == '\'' || c == '`' || c == ',' || c == ';' ||
           c == '.' || c == ':' || c == '!' || c == '?' || c == '*' || c == '_';
}

}  // namespace

std::optional<Reference> parse_reference(std::string_view text) {
    if (text.find("://") != std::string_view::npos) return std::nullopt;
    if (auto question = text.find('?'); question != std::string_view::npos) {
        Reference reference{std::string(text.substr(0, question)), 0, 0, std::string(text.substr(question + 1))};
        if (!looks_like_path(reference.path) || reference.search.empty()) return std::nullopt;
        return reference;
    }
    auto colon = text.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    Reference reference{std::string(text.substr(0, colon)), 0, 0, {}};
    if (!looks_like_path(reference.path)) return std::nullopt;
    std::string_view rest = text.substr(colon + 1);
    auto dash = rest.find('-');
    auto second_colon = rest.find(':');
    if (dash != std::string_view::npos && (second_colon == std::string_view::npos || dash < second_colon)) {
        reference.line = parse_line(rest.substr(0, dash));
        std::string_view end = rest.substr(dash + 1);
        reference.end_line = parse_line(end.substr(0, end.find(':')));
        if (reference.end_line == 0 || reference.end_line < reference.line) return std::nullopt;
    } else {
        reference.line = parse_line(rest.substr(0, second_colon));
        if (second_colon != std::string_view::npos && parse_line(rest.substr(second_colon + 1)) == 0) return std::nullopt;
    }
    if (reference.line == 0) return std::nullopt;
    return reference;
}

std::optional<Reference> parse_link_destination(std::string_view destination) {
    if (auto reference = parse_reference(destination)) return reference;
    if (destination.find(':') != std::string_view::npos || destination.starts_with('#') ||
        destination.find('?') != std::string_view::npos || !looks_like_path(destination))
        return std::nullopt;
    return Reference{std::string(destination), 1, 0, {}};
}

std::vector<FoundReference> find_references(std::string_view text) {
    std::vector<FoundReference> found;
    std::size_t position = 0;
    while (position < text.size()) {
        while (position < text.size() && (text[position] == ' ' || text[position] == '\t' || text[position] == '\n' ||
                                          text[position] == '\r'))
            ++position;
        std::size_t end = position;
        while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\n' && text[end] != '\r')
            ++end;
        std::size_t start = position;
        std::size_t stop = end;
        while (start < stop && is_leading_punctuation(text[start])) ++start;
        // Punctuation around a word is prose, not reference ("(see src/a.cpp:4)."); a search loses
        // a closing ')' too, and "?f(" still finds the line "f()" would.
        while (stop > start && is_trailing_punctuation(text[stop - 1])) --stop;
        if (stop > start) {
            if (auto reference = parse_reference(text.substr(start, stop - start)))
                found.push_back(FoundReference{start, stop - start, std::move(*reference)});
        }
        position = end;
    }
    return found;
}

ResolvedReference resolve(const Reference& reference, const std::string& base_directory) {
    namespace fs = std::filesystem;
    ResolvedReference resolved;
    fs::path path(reference.path);
    if (path.is_relative()) path = fs::path(base_directory) / path;
    resolved.path = path.lexically_normal().string();
    resolved.line = reference.line > 0 ? reference.line : 1;
    resolved.end_line = reference.end_line;
    std::error_code ec;
    resolved.exists = fs::is_regular_file(resolved.path, ec);
    if (!resolved.exists) {
        resolved.note = "no such file: " + resolved.path;
        return resolved;
    }
    if (reference.search.empty()) return resolved;
    std::ifstream file(resolved.path);
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
        if (line.find(reference.search) != std::string::npos) {
            resolved.line = number;
            return resolved;
        }
        if (number > 1000000) break;
    }
    resolved.note = "no line of " + resolved.path + " contains \"" + reference.search + "\"";
    return resolved;
}

}  // namespace mcpkit::review
