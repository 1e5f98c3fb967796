#include "analyze/syntax/SyntaxTree.hpp"

#include "analyze/syntax/ParseArena.hpp"

#include <array>
#include <utility>

namespace mcpkit::analyze {

SyntaxTree::SyntaxTree(TSTree* tree, std::string_view source, Language language, bool in_arena)
    : tree_(tree), source_(source), language_(language), in_arena_(in_arena) {}

SyntaxTree::SyntaxTree(SyntaxTree&& other) noexcept
    : tree_(std::exchange(other.tree_, nullptr)), source_(other.source_), language_(other.language_), in_arena_(other.in_arena_) {}

SyntaxTree& SyntaxTree::operator=(SyntaxTree&& other) noexcept {
    if (this != &other) {
        if (tree_ && (!in_arena_ || ParseArena::overflowed())) ts_tree_delete(tree_);
        tree_ = std::exchange(other.tree_, nullptr);
        source_ = other.source_;
        language_ = other.language_;
        in_arena_ = other.in_arena_;
    }
    return *this;
}

SyntaxTree::~SyntaxTree() {
    if (tree_ && (!in_arena_ || ParseArena::overflowed())) ts_tree_delete(tree_);
}

namespace {

struct ThreadParsers {
    std::array<TSParser*, language_count> parsers{};
    ~ThreadParsers() {
        for (TSParser* parser : parsers)
            if (parser) ts_parser_delete(parser);
    }
    TSParser* get(Language language) {
        TSParser*& parser = parsers[static_cast<std::size_t>(language)];
        if (!parser) {
            parser = ts_parser_new();
            ts_parser_set_language(parser, grammar(language));
        }
        return parser;
    }
};

}  // namespace

ParseOutcome parse(std::string_view source, Language language, std::chrono::microseconds timeout,
                   const std::atomic<std::size_t>* cancel) {
    thread_local ThreadParsers parsers;
    bool in_arena = ParseArena::open();
    TSParser* parser = nullptr;
    if (in_arena) {
        parser = ParseArena::new_parser();
        ts_parser_set_language(parser, grammar(language));
    } else {
        parser = parsers.get(language);
    }
    ts_parser_set_timeout_micros(parser, static_cast<std::uint64_t>(timeout.count()));
    // tree-sitter reads the flag as a plain size_t; std::atomic<size_t> has the same layout.
    static_assert(sizeof(std::atomic<std::size_t>) == sizeof(std::size_t));
    ts_parser_set_cancellation_flag(parser, reinterpret_cast<const std::size_t*>(cancel));
    TSTree* tree = ts_parser_parse_string(parser, nullptr, source.data(), static_cast<std::uint32_t>(source.size()));
    ts_parser_set_cancellation_flag(parser, nullptr);
    if (!tree) {
        // A stopped parse keeps its state for resumption; drop it so the next file starts clean.
        if (!in_arena) ts_parser_reset(parser);
        bool was_cancelled = cancel && cancel->load(std::memory_order_relaxed) != 0;
        return {was_cancelled ? ParseStatus::cancelled : ParseStatus::timed_out, nullptr};
    }
    return {ParseStatus::parsed, std::make_unique<SyntaxTree>(tree, source, language, in_arena)};
}

}  // namespace mcpkit::analyze
