#include "analyze/syntax/ParseArena.hpp"

#include <algorithm>
#include <cstdint>
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

struct ThreadArena {
    std::vector<char*> chunks;
    char* next = nullptr;
    char* end = nullptr;
    int depth = 0;
    std::size_t taken = 0;
    std::vector<TSParser*> parsers;

    ~ThreadArena() {
        for (char* chunk : chunks) std::free(chunk);
    }
    void* take(std::size_t size) {
        size = (size + 15) & ~std::size_t{15};
        std::size_t needed = size + sizeof(BlockHeader);
        if (static_cast<std::size_t>(end - next) < needed) {
            std::size_t bytes = std::max(chunk_bytes, needed);
            char* chunk = static_cast<char*>(std::malloc(bytes));
            if (!chunk) return nullptr;
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
        std::size_t keep = chunks.empty() ? 0 : 1;  // the first chunk serves the next file
        if (keep && end - chunks.front() != static_cast<std::ptrdiff_t>(chunk_bytes)) keep = 0;
#endif
        for (std::size_t i = keep; i < chunks.size(); ++i) std::free(chunks[i]);
        chunks.resize(keep);
        next = keep ? chunks.front() : nullptr;
        end = keep ? chunks.front() + chunk_bytes : nullptr;
        taken = keep ? chunk_bytes : 0;
    }
};

thread_local ThreadArena arena;

void* arena_malloc(std::size_t size) {
    if (arena.depth > 0) return arena.take(size);
    auto* header = static_cast<BlockHeader*>(std::malloc(size + sizeof(BlockHeader)));
    if (!header) return nullptr;
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
    if (size && count > SIZE_MAX / size) return nullptr;
    void* block = arena_malloc(count * size);
    if (block) std::memset(block, 0, count * size);
    return block;
}

void* arena_realloc(void* block, std::size_t size) {
    if (!block) return arena_malloc(size);
    BlockHeader* header = static_cast<BlockHeader*>(block) - 1;
    if (!header->from_arena && arena.depth == 0) {
        auto* moved = static_cast<BlockHeader*>(std::realloc(header, size + sizeof(BlockHeader)));
        if (!moved) return nullptr;
        moved->size = size;
        return moved + 1;
    }
    if (header->from_arena && size <= header->size) return block;
    void* grown = arena_malloc(size);
    if (!grown) return nullptr;
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

}  // namespace mcpkit::analyze
