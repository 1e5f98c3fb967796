#pragma once
// Small trees on disk and lookups into extracted symbols, for the navigation tests.

#include "analyze/navigation/IndexBuilder.hpp"
#include "analyze/navigation/NavigationQueries.hpp"
#include "analyze/navigation/SymbolExtractor.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace navigation_test {

namespace fs = std::filesystem;
using namespace mcpkit::analyze;

class TempTree {
public:
    TempTree()
        : root_(fs::temp_directory_path() / ("navigation-" + std::to_string(::getpid()) + "-" +
                                             testing::UnitTest::GetInstance()->current_test_info()->name())) {
        fs::remove_all(root_);
        fs::create_directories(root_);
        root_ = fs::canonical(root_);
    }
    ~TempTree() { fs::remove_all(root_); }
    void write(const std::string& path, const std::string& content) const {
        fs::create_directories((root_ / path).parent_path());
        std::ofstream(root_ / path) << content;
    }
    std::string root() const { return root_.string(); }
    /// The index of the tree, without a cache.
    IndexBuild index() const { return build_index(root(), ProjectOptions{}); }

private:
    fs::path root_;
};

inline FileSymbols symbols_of(std::string_view source, Language language, std::string path) {
    FileSymbols symbols = extract_symbols(source, language, std::move(path));
    EXPECT_FALSE(symbols.parse_failed);
    return symbols;
}

/// "kind name@line [container]" for every definition, in order.
inline std::vector<std::string> definitions(const FileSymbols& symbols) {
    std::vector<std::string> out;
    for (const Definition& definition : symbols.definitions) {
        std::string line = std::string(name(definition.kind)) + " " + std::string(symbols.text(definition.name)) + "@" +
                           std::to_string(definition.line);
        if (definition.container) line += " [" + std::string(symbols.text(definition.container)) + "]";
        out.push_back(line);
    }
    return out;
}

/// "kind qualifier.name@line" for every use (the qualifier and dot only for member uses).
inline std::vector<std::string> references(const FileSymbols& symbols) {
    std::vector<std::string> out;
    for (const Reference& reference : symbols.references) {
        std::string line = std::string(name(reference.kind)) + " ";
        if (reference.member) line += std::string(symbols.text(reference.qualifier)) + ".";
        line += std::string(symbols.text(reference.name)) + "@" + std::to_string(reference.line);
        out.push_back(line);
    }
    return out;
}

inline bool contains(const std::vector<std::string>& items, const std::string& wanted) {
    return std::find(items.begin(), items.end(), wanted) != items.end();
}

inline std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) out += "\n  " + item;
    return out;
}

}  // namespace navigation_test
