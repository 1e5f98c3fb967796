#include "analyze/syntax/ParseArena.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace mcpkit::analyze {

namespace {

// Every block tree-sitter gets starts with this, so free and realloc know where it came from.
struct alignas(16) BlockHeader {
    std::size_t size;
    std::size_t from_arena;
};

constexpr std::size_t chunk_bytes = std::size_t{1} << 20;
// Nothing is freed inside an arena, so a parse that churns (error recovery on a broken file) could
// hold many times its tree. Past this much, a file's blocks come from malloc again: freed as
// usual, and its tree deleted the usual way (see SyntaxTree).
constexpr std::size_t arena_limit = std::size_t{256} << 20;

[[noreturn]] void out_of_memory(std::size_t size) {
    std::fprintf(stderr, "tree-sitter failed to allocate %zu bytes\n", size);
    std::abort();
}

struct ThreadArena {
    std::vector<char*> chunks;
    char* next = nullptr;
    char* end = nullptr;
    int depth = 0;
    std::size_t taken = 0;
    bool overflowed = false;
    std::vector<TSParser*> parsers;

    ~ThreadArena() {
        for (char* chunk : chunks) std::free(chunk);
    }
    void* take(std::size_t size) {
        size = (size + 15) & ~std::size_t{15};
        std::size_t needed = size + sizeof(BlockHeader);
        if (static_cast<std::size_t>(end - next) < needed) {
            std::size_t bytes = std::max(chunk_bytes, needed);
            if (taken + bytes > arena_limit) {
                overflowed = true;
                return nullptr;  // the caller takes it from malloc
            }
            char* chunk = static_cast<char*>(std::malloc(bytes));
            if (!chunk) out_of_memory(bytes);
            if (chunks.empty()) first_is_ordinary = bytes == chunk_bytes;
            chunks.push_back(chunk);
            taken += bytes;
            next = chunk;
            end = chunk + bytes;
        }
        auto* header = reinterpret_cast<BlockHeader*>(next);
        header->size = size;
        header->from_arena = 1;
        next += needed;
        return header + 1;
    }
    void release() {
#if defined(__SANITIZE_ADDRESS__)
        // Under AddressSanitizer every chunk goes back, so a use after the arena is reported.
        std::size_t keep = 0;
#else
        // The first chunk serves the next file, when it is an ordinary one (not one large block).
        std::size_t keep = !chunks.empty() && first_is_ordinary ? 1 : 0;
#endif
        for (std::size_t i = keep; i < chunks.size(); ++i) std::free(chunks[i]);
        chunks.resize(keep);
        next = keep ? chunks.front() : nullptr;
        end = keep ? chunks.front() + chunk_bytes : nullptr;
        taken = keep ? chunk_bytes : 0;
        overflowed = false;
    }
    bool first_is_ordinary = false;
};

thread_local ThreadArena arena;

void* arena_malloc(std::size_t size) {
    if (arena.depth > 0 && !arena.overflowed) {
        if (void* block = arena.take(size)) return block;
    }
    auto* header = static_cast<BlockHeader*>(std::malloc(size + sizeof(BlockHeader)));
    if (!header) out_of_memory(size);
    header->size = size;
    header->from_arena = 0;
    return header + 1;
}

void arena_free(void* block) {
    if (!block) return;
    BlockHeader* header = static_cast<BlockHeader*>(block) - 1;
    if (!header->from_arena) std::free(header);  // arena blocks go when the arena closes
}

void* arena_calloc(std::size_t count, std::size_t size) {
    if (size && count > SIZE_MAX / size) out_of_memory(SIZE_MAX);
    void* block = arena_malloc(count * size);
    std::memset(block, 0, count * size);
    return block;
}

void* arena_realloc(void* block, std::size_t size) {
    if (!block) return arena_malloc(size);
    BlockHeader* header = static_cast<BlockHeader*>(block) - 1;
    if (!header->from_arena && arena.depth == 0) {
        auto* moved = static_cast<BlockHeader*>(std::realloc(header, size + sizeof(BlockHeader)));
        if (!moved) out_of_memory(size);
        moved->size = size;
        return moved + 1;
    }
    if (header->from_arena && size <= header->size) return block;
    void* grown = arena_malloc(size);
    std::memcpy(grown, block, std::min(size, header->size));
    arena_free(block);
    return grown;
}

// Installed before main(): tree-sitter must never see a block these functions did not make.
const bool installed = [] {
    ts_set_allocator(arena_malloc, arena_calloc, arena_realloc, arena_free);
    return true;
}();

}  // namespace

ParseArena::ParseArena() {
    (void)installed;
    ++arena.depth;
}

ParseArena::~ParseArena() {
    if (--arena.depth > 0) return;
    // Parsers go first: an external scanner may hold memory of its own (plain malloc) that only
    // its destroy function frees. Their arena blocks are not freed one by one.
    ++arena.depth;
    for (TSParser* parser : arena.parsers) ts_parser_delete(parser);
    arena.parsers.clear();
    --arena.depth;
    arena.release();
}

bool ParseArena::open() { return arena.depth > 0; }

TSParser* ParseArena::new_parser() {
    TSParser* parser = ts_parser_new();
    arena.parsers.push_back(parser);
    return parser;
}

std::size_t ParseArena::bytes_in_use() { return arena.taken; }

bool ParseArena::overflowed() { return arena.overflowed; }

}  // namespace mcpkit::analyze
