#pragma once
// tree-sitter's memory for one file at a time. A syntax tree is hundreds of thousands of small
// allocations, and freeing it walks every node again: a sixth of a cold run went to malloc, free
// and ts_tree_delete. While a ParseArena is open on a thread, tree-sitter allocates from that
// thread's arena (a few large blocks); parse() then gives each file a parser of its own, and
// closing the arena drops parser, tree and all at once.
//
// Everything tree-sitter allocated during the arena is gone after it: no TSNode, TSTree or
// SyntaxTree made inside may be used outside. Outside an arena tree-sitter uses malloc as before
// (through the same allocator functions, which tell the two kinds of block apart).

#include <tree_sitter/api.h>

#include <cstddef>

namespace mcpkit::analyze {

class ParseArena {
public:
    ParseArena();
    ~ParseArena();
    ParseArena(const ParseArena&) = delete;
    ParseArena& operator=(const ParseArena&) = delete;

    /// Whether this thread is inside an arena.
    static bool open();
    /// A parser for this file, deleted when the arena closes.
    static TSParser* new_parser();
    /// Bytes the thread's arena took from the system for the current file.
    static std::size_t bytes_in_use();
    /// The current file outgrew the arena: later blocks came from malloc, so its tree must be
    /// deleted the usual way to free them.
    static bool overflowed();
};

}  // namespace mcpkit::analyze
