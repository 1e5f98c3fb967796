#pragma once
// FileSymbols as bytes, for the cache: variable-length integers, lines as deltas, the file's
// string table once. A reference takes about six bytes, so a tree's index stays near the size of
// ctags' tags file although it holds every use of every name.

#include "analyze/navigation/Symbols.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcpkit::analyze {

std::string encode_symbols(const FileSymbols& symbols);
/// Checks every id and index; nothing for bytes that are damaged or of another format. The path
/// is not stored (the same content may live at several paths): the caller sets it.
std::optional<FileSymbols> decode_symbols(std::string_view bytes);

}  // namespace mcpkit::analyze
