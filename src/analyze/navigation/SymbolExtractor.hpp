#pragma once
// Reading a file's symbols out of its syntax tree, in one walk: definitions, uses of names that
// are not locals, supertypes, imports. See Symbols.hpp for what is kept and SymbolExtraction.hpp
// for how the work is split.

#include "analyze/navigation/Symbols.hpp"
#include "analyze/syntax/SyntaxTree.hpp"

#include <string>

namespace mcpkit::analyze {

FileSymbols extract_symbols(const SyntaxTree& tree, std::string path);

/// Parses and extracts; a parse that times out gives an empty FileSymbols with parse_failed set.
FileSymbols extract_symbols(std::string_view source, Language language, std::string path,
                            const std::atomic<std::size_t>* cancel = nullptr);

}  // namespace mcpkit::analyze
