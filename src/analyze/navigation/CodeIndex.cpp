#include "analyze/navigation/CodeIndex.hpp"

#include <algorithm>

namespace mcpkit::analyze {

namespace {

const std::vector<SymbolId> no_symbols;
const std::vector<CodeIndex::RelationId> no_relations;

std::string_view directory_of(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

bool ends_with_path(std::string_view path, std::string_view suffix) {
    if (suffix.empty() || path.size() < suffix.size()) return suffix.empty();
    if (path.substr(path.size() - suffix.size()) != suffix) return false;
    return path.size() == suffix.size() || path[path.size() - suffix.size() - 1] == '/';
}

// "a/b/../c" → "a/c"; a path leaving the root comes out empty.
std::string normalize(std::string_view path) {
    std::vector<std::string_view> parts;
    while (!path.empty()) {
        auto slash = path.find('/');
        std::string_view part = path.substr(0, slash);
        if (part == "..") {
            if (parts.empty()) return {};
            parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        if (slash == std::string_view::npos) break;
        path.remove_prefix(slash + 1);
    }
    std::string joined;
    for (std::string_view part : parts) {
        if (!joined.empty()) joined += '/';
        joined += part;
    }
    return joined;
}

}  // namespace

CodeIndex::CodeIndex() = default;
CodeIndex::~CodeIndex() = default;
CodeIndex::CodeIndex(CodeIndex&&) noexcept = default;
CodeIndex& CodeIndex::operator=(CodeIndex&&) noexcept = default;

CodeIndex::NameId CodeIndex::name_id(std::string_view name) {
    if (auto found = name_ids_.find(name); found != name_ids_.end()) return found->second;
    names_.emplace_back(name);
    auto id = static_cast<NameId>(names_.size() - 1);
    name_ids_.emplace(names_.back(), id);
    return id;
}

std::optional<CodeIndex::NameId> CodeIndex::find_name(std::string_view name) const {
    auto found = name_ids_.find(name);
    if (found == name_ids_.end()) return std::nullopt;
    return found->second;
}

void CodeIndex::replace(FileSymbols symbols) {
    std::uint32_t slot;
    if (auto found = by_path_.find(symbols.path); found != by_path_.end()) {
        slot = found->second;
        remove_lookups(slot);
    } else if (!free_slots_.empty()) {
        slot = free_slots_.back();
        free_slots_.pop_back();
        by_path_.emplace(symbols.path, slot);
    } else {
        slot = static_cast<std::uint32_t>(files_.size());
        files_.emplace_back();
        by_path_.emplace(symbols.path, slot);
    }
    files_[slot] = std::make_unique<FileSymbols>(std::move(symbols));
    add_lookups(slot);
}

void CodeIndex::remove(const std::string& path) {
    auto found = by_path_.find(path);
    if (found == by_path_.end()) return;
    std::uint32_t slot = found->second;
    remove_lookups(slot);
    files_[slot].reset();
    free_slots_.push_back(slot);
    by_path_.erase(found);
}

void CodeIndex::add_lookups(std::uint32_t slot) {
    const FileSymbols& file = *files_[slot];
    for (std::uint32_t i = 0; i < file.definitions.size(); ++i)
        definitions_by_name_[name_id(file.text(file.definitions[i].name))].push_back({slot, i});
    for (std::uint32_t i = 0; i < file.references.size(); ++i)
        references_by_name_[name_id(file.text(file.references[i].name))].push_back({slot, i});
    for (std::uint32_t i = 0; i < file.relations.size(); ++i)
        relations_by_target_[name_id(file.text(file.relations[i].target))].push_back({slot, i});
    definition_count_ += file.definitions.size();
    reference_count_ += file.references.size();
}

void CodeIndex::remove_lookups(std::uint32_t slot) {
    const FileSymbols& file = *files_[slot];
    auto drop = [slot](auto& lists, NameId name) {
        auto found = lists.find(name);
        if (found == lists.end()) return;
        auto& ids = found->second;
        ids.erase(std::remove_if(ids.begin(), ids.end(), [slot](const auto& id) { return id.file == slot; }), ids.end());
    };
    // Each name's list once, however often the file uses it: a file that uses x 50,000 times would
    // otherwise scan x's list 50,000 times.
    auto distinct = [&](auto&& items, auto&& name_of) {
        std::vector<NameId> names;
        for (const auto& item : items) names.push_back(*find_name(file.text(name_of(item))));
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        return names;
    };
    for (NameId name : distinct(file.definitions, [](const Definition& item) { return item.name; })) drop(definitions_by_name_, name);
    for (NameId name : distinct(file.references, [](const Reference& item) { return item.name; })) drop(references_by_name_, name);
    for (NameId name : distinct(file.relations, [](const Relation& item) { return item.target; })) drop(relations_by_target_, name);
    definition_count_ -= file.definitions.size();
    reference_count_ -= file.references.size();
}

const FileSymbols* CodeIndex::file(const std::string& path) const {
    auto found = by_path_.find(path);
    return found == by_path_.end() ? nullptr : files_[found->second].get();
}

std::optional<std::uint32_t> CodeIndex::slot_of(const std::string& path) const {
    auto found = by_path_.find(path);
    if (found == by_path_.end()) return std::nullopt;
    return found->second;
}

std::string module_name(const FileSymbols& file) {
    if (!file.package.empty()) return file.package;
    // C++ names its scopes with namespaces, which are the containers already.
    if (file.language == Language::cpp) return {};
    // Languages without a package statement: the path, as Python names modules (a/b/c.py: a.b.c).
    std::string_view path = file.path;
    std::size_t dot = path.rfind('.'), slash = path.rfind('/');
    if (dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash)) path = path.substr(0, dot);
    std::string name;
    while (!path.empty()) {
        std::size_t cut = path.find('/');
        std::string_view part = path.substr(0, cut);
        bool last = cut == std::string_view::npos;
        if (!part.empty() && !(last && (part == "__init__" || part == "index" || part == "mod"))) {
            if (!name.empty()) name += '.';
            name += part;
        }
        if (last) break;
        path.remove_prefix(cut + 1);
    }
    return name;
}

std::string CodeIndex::qualified_name(SymbolId id) const {
    const FileSymbols& file = *files_[id.file];
    const Definition& definition = file.definitions[id.item];
    std::string name = module_name(file);
    if (!name.empty()) name += '.';
    if (definition.container) name += std::string(file.text(definition.container)) + ".";
    name += file.text(definition.name);
    return name;
}

const std::vector<SymbolId>& CodeIndex::definitions_named(std::string_view name) const {
    auto id = find_name(name);
    if (!id) return no_symbols;
    auto found = definitions_by_name_.find(*id);
    return found == definitions_by_name_.end() ? no_symbols : found->second;
}

const std::vector<SymbolId>& CodeIndex::references_named(std::string_view name) const {
    auto id = find_name(name);
    if (!id) return no_symbols;
    auto found = references_by_name_.find(*id);
    return found == references_by_name_.end() ? no_symbols : found->second;
}

const std::vector<CodeIndex::RelationId>& CodeIndex::relations_to(std::string_view target) const {
    auto id = find_name(target);
    if (!id) return no_relations;
    auto found = relations_by_target_.find(*id);
    return found == relations_by_target_.end() ? no_relations : found->second;
}

bool CodeIndex::same_package(std::uint32_t a, std::uint32_t b) const {
    const FileSymbols& first = *files_[a];
    const FileSymbols& second = *files_[b];
    if (first.language == Language::java && !first.package.empty()) return first.package == second.package;
    return directory_of(first.path) == directory_of(second.path);
}

std::vector<SymbolId> CodeIndex::in_module(const std::vector<SymbolId>& candidates, std::uint32_t from_file,
                                           std::string_view module) const {
    const FileSymbols& from = *files_[from_file];
    std::vector<SymbolId> kept;
    auto keep_if = [&](auto&& matches) {
        for (SymbolId id : candidates)
            if (matches(*files_[id.file])) kept.push_back(id);
    };
    switch (from.language) {
    case Language::go:
        // The import path ends with the package's directory (the module's own path comes before it).
        keep_if([&](const FileSymbols& file) {
            std::string_view directory = directory_of(file.path);
            return directory.empty() ? module.find('/') == std::string_view::npos && module == file.package
                                     : ends_with_path(module, directory);
        });
        break;
    case Language::python: {
        std::string path;
        std::size_t dots = module.find_first_not_of('.');
        if (dots == std::string_view::npos) dots = module.size();
        if (dots > 0) {  // relative: from the importing file's package, one level up per extra dot
            path = std::string(directory_of(from.path));
            for (std::size_t up = 1; up < dots; ++up) path = std::string(directory_of(path));
            if (!path.empty()) path += '/';
        }
        for (char c : module.substr(dots)) path += c == '.' ? '/' : c;
        path = normalize(path);
        keep_if([&](const FileSymbols& file) {
            std::string_view name = file.path;
            if (name.size() > 3 && name.substr(name.size() - 3) == ".py") name.remove_suffix(3);
            if (name.size() > 9 && name.substr(name.size() - 9) == "/__init__") name.remove_suffix(9);
            return dots > 0 ? name == path : ends_with_path(name, path);
        });
        break;
    }
    case Language::javascript:
    case Language::typescript:
    case Language::tsx: {
        if (module.empty() || module[0] != '.') break;
        std::string base = normalize(std::string(directory_of(from.path)) + "/" + std::string(module));
        keep_if([&](const FileSymbols& file) {
            std::string_view path = file.path;
            if (path.substr(0, base.size()) != base) return false;
            std::string_view rest = path.substr(base.size());
            return (!rest.empty() && rest[0] == '.' && rest.find('/') == std::string_view::npos) ||
                   rest.substr(0, 7) == "/index.";
        });
        break;
    }
    case Language::java:
        keep_if([&](const FileSymbols& file) { return file.package == module; });
        break;
    case Language::rust: {
        std::string_view last = module.substr(module.rfind(':') == std::string_view::npos ? 0 : module.rfind(':') + 1);
        if (last.empty() || last == "crate" || last == "self" || last == "super") break;
        std::string as_file = std::string(last) + ".rs", as_directory = "/" + std::string(last) + "/";
        keep_if([&](const FileSymbols& file) {
            return ends_with_path(file.path, as_file) || file.path.find(as_directory) != std::string::npos ||
                   file.path.substr(0, as_directory.size() - 1) == as_directory.substr(1);
        });
        break;
    }
    case Language::c:
    case Language::cpp: break;
    }
    return kept;
}

std::vector<SymbolId> CodeIndex::members_of(const std::vector<SymbolId>& candidates, std::string_view container) const {
    std::vector<SymbolId> kept;
    for (SymbolId id : candidates) {
        std::string_view owner = text(id.file, definition(id).container);
        if (owner == container || (owner.size() > container.size() && owner[owner.size() - container.size() - 1] == '.' &&
                                   owner.substr(owner.size() - container.size()) == container))
            kept.push_back(id);
    }
    return kept;
}

}  // namespace mcpkit::analyze
