#pragma once
// What each grammar's node types mean to the analysis, as bit flags looked up by symbol id: one
// table per language, built once from the names in NodeRoles.cpp. The walker never compares
// strings on the hot path.

#include "analyze/syntax/Language.hpp"

#include <tree_sitter/api.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace mcpkit::analyze {

namespace role {
inline constexpr std::uint32_t function = 1u << 0;          ///< named function or method definition
inline constexpr std::uint32_t closure = 1u << 1;           ///< lambda, arrow function, closure
inline constexpr std::uint32_t type = 1u << 2;              ///< class, struct, interface, enum, trait, impl
inline constexpr std::uint32_t import = 1u << 3;
inline constexpr std::uint32_t branch = 1u << 4;            ///< if: +1 cyclomatic, +1+nesting cognitive, nests
inline constexpr std::uint32_t loop = 1u << 5;              ///< for, while, do: like branch
inline constexpr std::uint32_t case_label = 1u << 6;        ///< a switch case or match arm: +1 cyclomatic
inline constexpr std::uint32_t default_label = 1u << 7;     ///< default: / switch_default: nothing
inline constexpr std::uint32_t logical_operator = 1u << 8;  ///< a binary node that may be && / || / and / or
inline constexpr std::uint32_t ternary = 1u << 9;           ///< ?: : +1 cyclomatic, +1+nesting cognitive
inline constexpr std::uint32_t handler = 1u << 10;          ///< catch / except: +1 cyclomatic, nests
inline constexpr std::uint32_t comment = 1u << 11;
inline constexpr std::uint32_t else_if = 1u << 12;          ///< Python elif: +1 cyclomatic, +1 cognitive
inline constexpr std::uint32_t else_clause = 1u << 13;      ///< +1 cognitive after an if
inline constexpr std::uint32_t switch_statement = 1u << 14; ///< +1+nesting cognitive, nests
inline constexpr std::uint32_t jump = 1u << 15;             ///< goto: +1 cognitive
inline constexpr std::uint32_t comprehension = 1u << 16;    ///< Python for_in_clause / if_clause: +1 cyclomatic
inline constexpr std::uint32_t match = 1u << 17;            ///< Rust match: its arms count, less one
inline constexpr std::uint32_t statement = 1u << 18;        ///< a logical line (lloc)
inline constexpr std::uint32_t try_statement = 1u << 19;
inline constexpr std::uint32_t string = 1u << 20;           ///< a whole string literal (Python docstrings)
inline constexpr std::uint32_t assertion = 1u << 21;        ///< Python assert: +1 cyclomatic in radon
inline constexpr std::uint32_t block = 1u << 22;            ///< a body a docstring may start
inline constexpr std::uint32_t parameter_list = 1u << 23;
inline constexpr std::uint32_t preprocessor_conditional = 1u << 25;  ///< #if / #elif: their condition is not a decision
inline constexpr std::uint32_t operation = 1u << 24;         ///< Python arithmetic, unary, comparison, augmented assignment (Halstead)
}  // namespace role

class NodeRoles {
public:
    static const NodeRoles& of(Language language);
    std::uint32_t operator[](TSSymbol symbol) const { return symbol < roles_.size() ? roles_[symbol] : 0; }
    /// Every node type name the table uses, for the test that checks the grammar has them all.
    static std::vector<std::string_view> names_used(Language language);

private:
    explicit NodeRoles(Language language);
    std::vector<std::uint32_t> roles_;
};

}  // namespace mcpkit::analyze
