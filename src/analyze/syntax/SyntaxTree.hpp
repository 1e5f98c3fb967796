#pragma once
// One parsed source: the tree-sitter tree and the text it points into. Parsers are expensive to
// create, so each thread keeps one per language (see parse()).

#include "analyze/syntax/Language.hpp"

#include <tree_sitter/api.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string_view>

namespace mcpkit::analyze {

class SyntaxTree {
public:
    /// `in_arena`: the tree lives in a ParseArena, which frees it (the destructor leaves it alone).
    SyntaxTree(TSTree* tree, std::string_view source, Language language, bool in_arena = false);
    SyntaxTree(SyntaxTree&&) noexcept;
    SyntaxTree& operator=(SyntaxTree&&) noexcept;
    ~SyntaxTree();

    TSNode root() const { return ts_tree_root_node(tree_); }
    std::string_view source() const { return source_; }
    Language language() const { return language_; }
    std::string_view text(TSNode node) const {
        return source_.substr(ts_node_start_byte(node), ts_node_end_byte(node) - ts_node_start_byte(node));
    }

private:
    TSTree* tree_;
    std::string_view source_;
    Language language_;
    bool in_arena_ = false;
};

enum class ParseStatus { parsed, timed_out, cancelled };

struct ParseOutcome {
    ParseStatus status;
    std::unique_ptr<SyntaxTree> tree;  ///< set when parsed
};

/// Parses `source` (which must outlive the tree) with this thread's parser for `language` (inside a
/// ParseArena: with a parser of its own, in the arena). A parse stops after `timeout` (pathological
/// inputs can take very long) or once `*cancel` becomes non-zero.
ParseOutcome parse(std::string_view source, Language language, std::chrono::microseconds timeout,
                   const std::atomic<std::size_t>* cancel = nullptr);

}  // namespace mcpkit::analyze
