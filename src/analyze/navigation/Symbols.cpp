#include "analyze/navigation/Symbols.hpp"

#include <array>

namespace mcpkit::analyze {

namespace {
constexpr std::array<std::string_view, symbol_kind_count> symbol_kind_names = {
    "function", "method", "class", "struct", "union", "enum", "interface", "trait", "type",
    "constant", "variable", "field", "enumMember", "macro", "namespace", "module"};
}  // namespace

std::string_view name(SymbolKind kind) { return symbol_kind_names[static_cast<std::size_t>(kind)]; }

std::optional<SymbolKind> parse_symbol_kind(std::string_view text) {
    for (std::size_t i = 0; i < symbol_kind_names.size(); ++i)
        if (symbol_kind_names[i] == text) return static_cast<SymbolKind>(i);
    return std::nullopt;
}

bool is_callable(SymbolKind kind) { return kind == SymbolKind::function || kind == SymbolKind::method || kind == SymbolKind::macro; }

bool is_type(SymbolKind kind) {
    switch (kind) {
    case SymbolKind::class_type:
    case SymbolKind::struct_type:
    case SymbolKind::union_type:
    case SymbolKind::enum_type:
    case SymbolKind::interface:
    case SymbolKind::trait:
    case SymbolKind::type_alias: return true;
    default: return false;
    }
}

std::string_view name(ReferenceKind kind) {
    constexpr std::string_view names[] = {"call", "read", "write", "import", "type"};
    return names[static_cast<std::size_t>(kind)];
}

std::string_view name(RelationKind kind) {
    constexpr std::string_view names[] = {"extends", "implements", "embeds"};
    return names[static_cast<std::size_t>(kind)];
}

}  // namespace mcpkit::analyze
