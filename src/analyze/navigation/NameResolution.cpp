// CodeIndex's answers to "what does this name mean": the rules in the order a reader applies them.

#include "analyze/navigation/CodeIndex.hpp"

#include <algorithm>

namespace mcpkit::analyze {

namespace {

bool is_receiver(std::string_view qualifier) {
    return qualifier == "self" || qualifier == "this" || qualifier == "cls" || qualifier == "super" || qualifier == "Self";
}

bool is_member_kind(SymbolKind kind) {
    return kind == SymbolKind::method || kind == SymbolKind::field || kind == SymbolKind::enum_member ||
           kind == SymbolKind::function || kind == SymbolKind::constant || kind == SymbolKind::variable;
}

// Uses of each kind that a definition of each kind can answer: a call wants something callable
// (or a type: constructors, conversions), a type use wants a type.
bool plausible(ReferenceKind use, SymbolKind kind) {
    switch (use) {
    case ReferenceKind::call: return is_callable(kind) || is_type(kind) || kind == SymbolKind::variable || kind == SymbolKind::field;
    case ReferenceKind::type:
        return is_type(kind) || kind == SymbolKind::namespace_ || kind == SymbolKind::module || kind == SymbolKind::macro;
    default: return true;
    }
}

Resolution settle(std::vector<SymbolId> candidates, bool by_rule) {
    Resolution resolution;
    resolution.certain = by_rule && candidates.size() == 1;
    resolution.candidates = std::move(candidates);
    return resolution;
}

}  // namespace

Resolution CodeIndex::resolve(SymbolId id) const {
    const FileSymbols& file = *files_[id.file];
    const Reference& use = file.references[id.item];
    const std::vector<SymbolId>& named = definitions_named(file.text(use.name));
    if (named.empty()) return {};
    std::vector<SymbolId> candidates;
    for (SymbolId candidate : named)
        if (plausible(use.kind, definition(candidate).kind)) candidates.push_back(candidate);
    if (candidates.empty()) candidates = named;
    // A use cannot mean a definition in another language (bindings aside, which syntax cannot see);
    // C and C++ share headers.
    auto compatible = [&](Language other) {
        auto family = [](Language language) {
            if (language == Language::c || language == Language::cpp) return 0;
            if (language == Language::javascript || language == Language::typescript || language == Language::tsx) return 1;
            return 2 + static_cast<int>(language);
        };
        return family(other) == family(file.language);
    };
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](SymbolId candidate) { return !compatible(files_[candidate.file]->language); }),
                     candidates.end());
    if (candidates.empty()) return {};

    std::string_view qualifier = file.text(use.qualifier);
    std::string_view enclosing_container;
    if (use.enclosing >= 0) {
        const Definition& enclosing = file.definitions[static_cast<std::size_t>(use.enclosing)];
        enclosing_container = file.text(enclosing.container);
    }

    if (use.kind == ReferenceKind::import && !qualifier.empty()) {
        std::vector<SymbolId> found = in_module(candidates, id.file, qualifier);
        if (!found.empty()) return settle(std::move(found), true);
        return settle(std::move(candidates), false);
    }

    if (use.member) {
        // self.x, this.x: the enclosing class's members first.
        if (is_receiver(qualifier) && !enclosing_container.empty()) {
            std::vector<SymbolId> own = members_of(candidates, enclosing_container);
            std::vector<SymbolId> same_file;
            for (SymbolId candidate : own)
                if (candidate.file == id.file) same_file.push_back(candidate);
            if (!same_file.empty()) return settle(std::move(same_file), true);
            if (!own.empty()) return settle(std::move(own), true);
        }
        // alias.name: an imported module's definitions.
        if (!qualifier.empty() && !is_receiver(qualifier)) {
            std::string_view head = qualifier.substr(0, qualifier.find_first_of(".:"));
            for (const ImportBinding& binding : file.imports) {
                if (file.text(binding.alias) != head) continue;
                std::string module(file.text(binding.module));
                std::string_view member = file.text(binding.member);
                if (!member.empty()) {
                    bool relative_python = file.language == Language::python && !module.empty() && module.back() == '.';
                    module += relative_python ? "" : file.language == Language::rust ? "::" : ".";
                    module += member;
                }
                std::string_view rest = qualifier.substr(head.size());
                if (!rest.empty()) module += rest;
                std::vector<SymbolId> found = in_module(candidates, id.file, module);
                if (found.empty() && file.language == Language::java && !member.empty())
                    found = members_of(in_module(candidates, id.file, file.text(binding.module)), member);
                // module.name means the module's own name, not a same-named method inside it.
                if (file.language != Language::java && found.size() > 1) {
                    std::vector<SymbolId> top_level;
                    for (SymbolId candidate : found)
                        if (!definition(candidate).container) top_level.push_back(candidate);
                    if (!top_level.empty()) found = std::move(top_level);
                }
                if (!found.empty()) return settle(std::move(found), true);
            }
            // Type.member: the type's own members.
            std::string_view last = qualifier.substr(qualifier.find_last_of(".:") == std::string_view::npos
                                                         ? 0
                                                         : qualifier.find_last_of(".:") + 1);
            std::vector<SymbolId> owned = members_of(candidates, last);
            if (owned.size() > 1) {  // types of that name in several packages: the nearest
                std::vector<SymbolId> near;
                for (SymbolId candidate : owned)
                    if (candidate.file == id.file || same_package(id.file, candidate.file)) near.push_back(candidate);
                if (!near.empty()) owned = std::move(near);
            }
            if (!owned.empty()) return settle(std::move(owned), owned.size() == 1);
        }
        // Something of a type syntax does not tell: any member of that name.
        std::vector<SymbolId> members;
        for (SymbolId candidate : candidates)
            if (definition(candidate).container && is_member_kind(definition(candidate).kind)) members.push_back(candidate);
        return settle(members.empty() ? std::move(candidates) : std::move(members), false);
    }

    // A bare name: the same file, an import of that name, the same package, anywhere. In Python,
    // JavaScript, TypeScript, Go and Rust a bare name is never a type's method or field (only Java
    // and C++ have an implicit this).
    if (file.language != Language::java && file.language != Language::cpp && file.language != Language::c) {
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                        [&](SymbolId candidate) {
                                            SymbolKind kind = definition(candidate).kind;
                                            return kind == SymbolKind::method || kind == SymbolKind::field ||
                                                   (kind == SymbolKind::enum_member && file.language != Language::rust);
                                        }),
                         candidates.end());
        if (candidates.empty()) return {};
    }
    std::vector<SymbolId> same_file;
    for (SymbolId candidate : candidates)
        if (candidate.file == id.file) same_file.push_back(candidate);
    if (!same_file.empty()) {
        if (same_file.size() > 1 && !enclosing_container.empty()) {
            std::vector<SymbolId> sibling = members_of(same_file, enclosing_container);
            if (!sibling.empty()) return settle(std::move(sibling), true);
        }
        return settle(std::move(same_file), true);
    }
    std::string_view name = file.text(use.name);
    for (const ImportBinding& binding : file.imports) {
        if (file.text(binding.alias) != name || !binding.member) continue;
        std::vector<SymbolId> found = in_module(candidates, id.file, file.text(binding.module));
        if (!found.empty()) return settle(std::move(found), true);
    }
    bool c_family = file.language == Language::c || file.language == Language::cpp;
    if (!c_family) {  // C has no packages: files of one directory are as far apart as any
        std::vector<SymbolId> package;
        for (SymbolId candidate : candidates)
            if (same_package(id.file, candidate.file)) package.push_back(candidate);
        if (!package.empty()) return settle(std::move(package), true);
    }
    if (c_family) {
        // The headers the file includes.
        std::vector<SymbolId> included;
        for (SymbolId candidate : candidates) {
            const std::string& path = files_[candidate.file]->path;
            for (const ImportBinding& binding : file.imports) {
                std::string_view header = file.text(binding.module);
                if (path.size() >= header.size() && path.compare(path.size() - header.size(), header.size(), header) == 0) {
                    included.push_back(candidate);
                    break;
                }
            }
        }
        if (!included.empty()) return settle(std::move(included), true);
        // A function defined in exactly one file is the one every other file calls.
        std::vector<SymbolId> visible;
        for (SymbolId candidate : candidates)
            if (definition(candidate).exported) visible.push_back(candidate);
        if (!visible.empty()) return settle(std::move(visible), visible.size() == 1);
    }
    // Without a package to go by (Go and Java have one), a single definition anywhere is the one.
    return settle(std::move(candidates), true);
}

std::int32_t CodeIndex::definition_containing(std::uint32_t file_slot, std::uint32_t line) const {
    const FileSymbols& file = *files_[file_slot];
    std::int32_t best = -1;
    for (std::uint32_t i = 0; i < file.definitions.size(); ++i) {
        const Definition& definition = file.definitions[i];
        if (definition.line <= line && line <= definition.end_line) {
            if (best < 0 || definition.line >= file.definitions[static_cast<std::size_t>(best)].line)
                best = static_cast<std::int32_t>(i);
        }
    }
    return best;
}

Resolution CodeIndex::at(const std::string& path, std::uint32_t line, std::uint32_t column) const {
    auto slot = slot_of(path);
    if (!slot) return {};
    const FileSymbols& file = *files_[*slot];
    auto covers = [&](std::uint32_t at_line, std::uint32_t at_column, StringId name) {
        return at_line == line && column >= at_column && column < at_column + std::max<std::size_t>(1, file.text(name).size());
    };
    for (std::uint32_t i = 0; i < file.definitions.size(); ++i)
        if (covers(file.definitions[i].line, file.definitions[i].column, file.definitions[i].name))
            return settle({{*slot, i}}, true);
    for (std::uint32_t i = 0; i < file.references.size(); ++i)
        if (covers(file.references[i].line, file.references[i].column, file.references[i].name)) return resolve({*slot, i});
    return {};
}

std::vector<CodeIndex::RelationId> CodeIndex::relations_of(SymbolId type) const {
    std::vector<RelationId> relations;
    const FileSymbols& file = *files_[type.file];
    for (std::uint32_t i = 0; i < file.relations.size(); ++i)
        if (file.relations[i].type == static_cast<std::int32_t>(type.item)) relations.push_back({type.file, i});
    // Rust: `impl Trait for T` anywhere in the tree.
    if (file.language == Language::rust) {
        std::string_view name = file.text(definition(type).name);
        for (std::uint32_t slot = 0; slot < files_.size(); ++slot) {
            if (!files_[slot] || files_[slot]->language != Language::rust) continue;
            const FileSymbols& other = *files_[slot];
            for (std::uint32_t i = 0; i < other.relations.size(); ++i)
                if (other.relations[i].type < 0 && other.text(other.relations[i].subject) == name) relations.push_back({slot, i});
        }
    }
    return relations;
}

Resolution CodeIndex::resolve_relation(RelationId id) const {
    const FileSymbols& file = *files_[id.file];
    const Relation& relation = file.relations[id.item];
    std::vector<SymbolId> types;
    for (SymbolId candidate : definitions_named(file.text(relation.target)))
        if (is_type(definition(candidate).kind)) types.push_back(candidate);
    if (types.empty()) return {};
    std::string_view qualifier = file.text(relation.qualifier);
    if (!qualifier.empty()) {
        for (const ImportBinding& binding : file.imports)
            if (file.text(binding.alias) == qualifier) {
                std::vector<SymbolId> found = in_module(types, id.file, file.text(binding.module));
                if (!found.empty()) return settle(std::move(found), true);
            }
    }
    std::vector<SymbolId> near;
    for (SymbolId candidate : types)
        if (candidate.file == id.file || same_package(id.file, candidate.file)) near.push_back(candidate);
    if (!near.empty()) return settle(std::move(near), true);
    for (const ImportBinding& binding : file.imports)
        if (file.text(binding.alias) == file.text(relation.target) && binding.member) {
            std::vector<SymbolId> found = in_module(types, id.file, file.text(binding.module));
            if (!found.empty()) return settle(std::move(found), true);
        }
    return settle(std::move(types), true);
}

std::vector<SymbolId> CodeIndex::relation_subjects(RelationId id) const {
    const FileSymbols& file = *files_[id.file];
    const Relation& relation = file.relations[id.item];
    if (relation.type >= 0) return {{id.file, static_cast<std::uint32_t>(relation.type)}};
    std::vector<SymbolId> subjects;
    for (SymbolId candidate : definitions_named(file.text(relation.subject)))
        if (is_type(definition(candidate).kind) && files_[candidate.file]->language == file.language) subjects.push_back(candidate);
    return subjects;
}

}  // namespace mcpkit::analyze
