#pragma once
// The navigation index of one tree, in memory: every file's symbols, and lookups by name that are
// kept up to date as files are replaced one at a time (the watcher's edits cost the file, not the
// tree). Answers "what does this name resolve to" as far as syntax allows: scopes were applied by
// the extractor; here come receivers (`self`, `this`), imports and aliases, then the same file,
// the same package or directory, and the whole tree. Where more than one definition remains the
// answer lists them all and says it is not certain.

#include "analyze/navigation/Symbols.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mcpkit::analyze {

/// A file's package (Go, Java) or, for the other languages, its path as a dotted module name.
std::string module_name(const FileSymbols& file);

/// A definition or reference: the file's slot in the index and the item's index in that file.
struct SymbolId {
    std::uint32_t file = 0;
    std::uint32_t item = 0;
    bool operator==(const SymbolId&) const = default;
    bool operator<(const SymbolId& other) const { return file != other.file ? file < other.file : item < other.item; }
};

struct Resolution {
    std::vector<SymbolId> candidates;  ///< definitions the use may mean, best first
    bool certain = false;              ///< exactly one, found by a rule rather than left over
};

class CodeIndex {
public:
    CodeIndex();
    ~CodeIndex();
    CodeIndex(CodeIndex&&) noexcept;
    CodeIndex& operator=(CodeIndex&&) noexcept;

    /// Adds the file, or replaces what the index knew of it.
    void replace(FileSymbols symbols);
    void remove(const std::string& path);
    std::size_t file_count() const { return by_path_.size(); }
    /// Slots run from 0 to this; file(slot) is null for a slot freed by remove().
    std::uint32_t slot_count() const { return static_cast<std::uint32_t>(files_.size()); }
    std::size_t definition_count() const { return definition_count_; }
    std::size_t reference_count() const { return reference_count_; }

    const FileSymbols* file(std::uint32_t slot) const { return slot < files_.size() ? files_[slot].get() : nullptr; }
    const FileSymbols* file(const std::string& path) const;
    std::optional<std::uint32_t> slot_of(const std::string& path) const;
    const Definition& definition(SymbolId id) const { return files_[id.file]->definitions[id.item]; }
    const Reference& reference(SymbolId id) const { return files_[id.file]->references[id.item]; }
    std::string_view text(std::uint32_t file, StringId id) const { return files_[file]->text(id); }
    /// "module.Container.name", the module as module_name() gives it.
    std::string qualified_name(SymbolId definition) const;

    /// Definitions by exact name.
    const std::vector<SymbolId>& definitions_named(std::string_view name) const;
    /// References by exact name (whatever they resolve to).
    const std::vector<SymbolId>& references_named(std::string_view name) const;
    /// Every distinct name defined somewhere, for pattern searches.
    template <class Visit>
    void each_defined_name(Visit&& visit) const {
        for (const auto& [name, ids] : definitions_by_name_)
            if (!ids.empty()) visit(names_[name], ids);
    }

    /// What a use of a name may mean.
    Resolution resolve(SymbolId reference) const;
    /// The definition whose name is at file:line:column, else the one a reference there resolves to.
    Resolution at(const std::string& path, std::uint32_t line, std::uint32_t column) const;
    /// The innermost definition of `file` whose lines contain `line`, else -1.
    std::int32_t definition_containing(std::uint32_t file, std::uint32_t line) const;

    /// Relations (supertypes named by definitions), by the supertype's name.
    struct RelationId {
        std::uint32_t file = 0;
        std::uint32_t item = 0;
    };
    const std::vector<RelationId>& relations_to(std::string_view target) const;
    /// Relations whose subject is this definition (its own declarations, and Rust impl blocks).
    std::vector<RelationId> relations_of(SymbolId type) const;
    /// The definitions a relation's target may be.
    Resolution resolve_relation(RelationId relation) const;
    /// The definition a relation belongs to: its type, or for Rust impl blocks the type named.
    std::vector<SymbolId> relation_subjects(RelationId relation) const;

private:
    using NameId = std::uint32_t;
    NameId name_id(std::string_view name);
    std::optional<NameId> find_name(std::string_view name) const;
    void add_lookups(std::uint32_t slot);
    void remove_lookups(std::uint32_t slot);
    /// Narrows `candidates` to those in files the module names (an import's module path).
    std::vector<SymbolId> in_module(const std::vector<SymbolId>& candidates, std::uint32_t from_file,
                                    std::string_view module) const;
    bool same_package(std::uint32_t a, std::uint32_t b) const;
    std::vector<SymbolId> members_of(const std::vector<SymbolId>& candidates, std::string_view container) const;

    std::vector<std::unique_ptr<FileSymbols>> files_;
    std::vector<std::uint32_t> free_slots_;
    std::unordered_map<std::string, std::uint32_t> by_path_;
    std::deque<std::string> names_;  ///< by NameId; stable addresses for the views below
    std::unordered_map<std::string_view, NameId> name_ids_;
    std::unordered_map<NameId, std::vector<SymbolId>> definitions_by_name_;
    std::unordered_map<NameId, std::vector<SymbolId>> references_by_name_;
    std::unordered_map<NameId, std::vector<RelationId>> relations_by_target_;
    std::size_t definition_count_ = 0;
    std::size_t reference_count_ = 0;
};

}  // namespace mcpkit::analyze
