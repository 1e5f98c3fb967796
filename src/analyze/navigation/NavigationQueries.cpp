// find-symbol, find-references and what the other queries share: naming a target, describing a
// definition, the text of a line.

#include "analyze/navigation/NavigationQueries.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace mcpkit::analyze {
namespace json = boost::json;

namespace navigation {

namespace {

std::vector<std::string_view> split_qualified(std::string_view text) {
    std::vector<std::string_view> parts;
    while (!text.empty()) {
        std::size_t cut = text.find_first_of(".:#");
        std::string_view part = text.substr(0, cut);
        if (!part.empty()) parts.push_back(part);
        if (cut == std::string_view::npos) break;
        text.remove_prefix(cut + 1);
    }
    return parts;
}

// Where a definition sits, outermost first: package (or the module its path makes), containers, name.
std::vector<std::string> qualified_parts(const CodeIndex& index, SymbolId id) {
    const FileSymbols& file = *index.file(id.file);
    const Definition& definition = index.definition(id);
    std::vector<std::string> parts;
    std::string module = module_name(file);
    for (std::string_view part : split_qualified(module)) parts.emplace_back(part);
    for (std::string_view part : split_qualified(file.text(definition.container))) parts.emplace_back(part);
    parts.emplace_back(file.text(definition.name));
    return parts;
}

bool glob_match(std::string_view pattern, std::string_view text, bool fold) {
    auto same = [fold](char a, char b) {
        return fold ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)) : a == b;
    };
    std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || same(pattern[p], text[t]))) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

std::string lower(std::string_view text) {
    std::string folded(text);
    for (char& c : folded) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return folded;
}

bool parse_number(std::string_view text, std::uint32_t& value) {
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string_view::npos) return false;
    value = static_cast<std::uint32_t>(std::stoul(std::string(text)));
    return value > 0;
}

}  // namespace

std::string location(const CodeIndex& index, SymbolId id) {
    const Definition& definition = index.definition(id);
    return index.file(id.file)->path + ":" + std::to_string(definition.line) + ":" + std::to_string(definition.column);
}

json::object definition_json(const NavigationContext& context, SymbolId id) {
    const CodeIndex& index = context.index;
    const FileSymbols& file = *index.file(id.file);
    const Definition& definition = index.definition(id);
    json::object out{{"name", file.text(definition.name)},
                     {"qualifiedName", index.qualified_name(id)},
                     {"kind", name(definition.kind)},
                     {"location", location(index, id)},
                     {"path", file.path},
                     {"line", definition.line},
                     {"column", definition.column},
                     {"endLine", definition.end_line},
                     {"language", name(file.language)},
                     {"exported", definition.exported}};
    if (definition.container) out["container"] = file.text(definition.container);
    if (definition.signature) out["signature"] = file.text(definition.signature);
    if (definition.doc) out["doc"] = file.text(definition.doc);
    return out;
}

std::optional<SymbolId> enclosing_definition(const CodeIndex& index, SymbolId reference) {
    std::int32_t enclosing = index.reference(reference).enclosing;
    if (enclosing < 0) return std::nullopt;
    return SymbolId{reference.file, static_cast<std::uint32_t>(enclosing)};
}

Resolution resolve_target(const NavigationContext& context, const std::string& raw_target) {
    const CodeIndex& index = context.index;
    std::string target = raw_target;
    if (!context.root.empty() && target.rfind(context.root + "/", 0) == 0) target.erase(0, context.root.size() + 1);
    if (target.empty()) throw std::invalid_argument("symbol is empty: give a name (Server.Serve) or a place (path:line:column)");
    // path:line[:column]
    std::size_t last_colon = target.rfind(':');
    if (last_colon != std::string::npos && last_colon + 1 < target.size() && std::isdigit(static_cast<unsigned char>(target[last_colon + 1]))) {
        std::uint32_t line = 0, column = 0;
        std::string path = target.substr(0, last_colon);
        if (!parse_number(std::string_view(target).substr(last_colon + 1), line))
            throw std::invalid_argument("symbol " + raw_target + ": the line must be a positive number");
        std::size_t previous = path.rfind(':');
        if (previous != std::string::npos && parse_number(std::string_view(path).substr(previous + 1), column)) {
            std::swap(line, column);
            path.resize(previous);
        }
        auto slot = index.slot_of(path);
        if (!slot)
            throw std::invalid_argument("symbol " + raw_target + ": " + path + " is not a file of the index (paths are relative to " +
                                        context.root + ")");
        const FileSymbols& file = *index.file(*slot);
        if (column == 0) {  // the first definition, else the first use that means something, on that line
            for (const Definition& definition : file.definitions)
                if (definition.line == line) return index.at(path, line, definition.column);
            for (const Reference& reference : file.references) {
                if (reference.line != line) continue;
                Resolution found = index.at(path, line, reference.column);
                if (!found.candidates.empty()) return found;
            }
        } else {
            Resolution found = index.at(path, line, column);
            if (!found.candidates.empty()) return found;
        }
        throw std::invalid_argument("symbol " + raw_target + ": no definition or use of a name there (give the column of the name, "
                                    "or use find-symbol)");
    }
    std::vector<std::string_view> wanted = split_qualified(target);
    if (wanted.empty()) throw std::invalid_argument("symbol " + raw_target + " names nothing");
    std::vector<SymbolId> found;
    for (SymbolId id : index.definitions_named(wanted.back())) {
        if (wanted.size() == 1) {
            found.push_back(id);
            continue;
        }
        std::vector<std::string> parts = qualified_parts(index, id);
        if (parts.size() >= wanted.size() && std::equal(wanted.begin(), wanted.end(), parts.end() - static_cast<std::ptrdiff_t>(wanted.size())))
            found.push_back(id);
    }
    if (found.empty()) {
        std::vector<std::string> near;
        std::string folded = lower(wanted.back());
        index.each_defined_name([&](const std::string& candidate, const std::vector<SymbolId>&) {
            if (near.size() < 5 && lower(candidate).find(folded) != std::string::npos) near.push_back(candidate);
        });
        std::string message = "No definition named " + raw_target + " in the index of " + context.root;
        if (!near.empty()) {
            message += "; names containing it: ";
            for (std::size_t i = 0; i < near.size(); ++i) message += (i ? ", " : "") + near[i];
        }
        throw std::invalid_argument(message + " (find-symbol searches by pattern, e.g. \"*" + std::string(wanted.back()) + "*\")");
    }
    std::sort(found.begin(), found.end());
    Resolution resolution;
    resolution.certain = found.size() == 1;
    resolution.candidates = std::move(found);
    return resolution;
}

NavigationAnswer ambiguous_answer(const NavigationContext& context, const std::string& target, const Resolution& resolution) {
    NavigationAnswer answer;
    json::array candidates;
    answer.text = target + " names " + std::to_string(resolution.candidates.size()) +
                  " definitions; ask again with a qualified name or one of these places:\n";
    for (SymbolId id : resolution.candidates) {
        candidates.push_back(definition_json(context, id));
        answer.text += "  " + location(context.index, id) + " " + std::string(name(context.index.definition(id).kind)) + " " +
                       context.index.qualified_name(id) + "\n";
    }
    answer.summary = target + ": ambiguous, " + std::to_string(resolution.candidates.size()) + " candidates";
    answer.data = json::object{{"target", target}, {"ambiguous", true}, {"candidates", std::move(candidates)}};
    return answer;
}

}  // namespace navigation

using namespace navigation;

std::vector<SymbolId> matching_symbols(const NavigationContext& context, const SymbolSearch& search) {
    const CodeIndex& index = context.index;
    if (search.query.empty()) throw std::invalid_argument("query is empty: give a name, a qualified name or a pattern such as Serve*");
    std::vector<SymbolId> found;
    bool pattern = search.query.find_first_of("*?") != std::string::npos;
    if (pattern) {
        std::vector<std::string_view> wanted = split_qualified(search.query);
        std::string_view last = wanted.empty() ? std::string_view(search.query) : wanted.back();
        bool fold = lower(last) == last;
        index.each_defined_name([&](const std::string& candidate, const std::vector<SymbolId>& ids) {
            if (glob_match(last, candidate, fold)) found.insert(found.end(), ids.begin(), ids.end());
        });
    } else {
        try {
            found = resolve_target(context, search.query).candidates;
        } catch (const std::invalid_argument&) {
            // Not an exact name: the same letters in any case, or the name inside longer ones.
            std::vector<std::string_view> parts = split_qualified(search.query);
            if (parts.empty()) throw std::invalid_argument("query " + search.query + " names nothing: give a name such as Serve");
            std::string folded = lower(parts.back());
            index.each_defined_name([&](const std::string& candidate, const std::vector<SymbolId>& ids) {
                if (lower(candidate).find(folded) != std::string::npos) found.insert(found.end(), ids.begin(), ids.end());
            });
        }
    }
    auto keep = [&](SymbolId id) {
        if (search.kind && index.definition(id).kind != *search.kind) return false;
        if (!search.path.empty()) {
            const std::string& path = index.file(id.file)->path;
            if (path.rfind(search.path, 0) != 0) return false;
            if (path.size() > search.path.size() && search.path.back() != '/' && path[search.path.size()] != '/') return false;
        }
        return true;
    };
    found.erase(std::remove_if(found.begin(), found.end(), [&](SymbolId id) { return !keep(id); }), found.end());
    // Exact names first, then types before their members, then by place.
    std::vector<std::string_view> query_parts = split_qualified(search.query);
    std::string exact = pattern || query_parts.empty() ? std::string() : std::string(query_parts.back());
    std::sort(found.begin(), found.end(), [&](SymbolId a, SymbolId b) {
        bool exact_a = index.text(a.file, index.definition(a).name) == exact;
        bool exact_b = index.text(b.file, index.definition(b).name) == exact;
        if (exact_a != exact_b) return exact_a;
        const std::string& path_a = index.file(a.file)->path;
        const std::string& path_b = index.file(b.file)->path;
        if (path_a != path_b) return path_a < path_b;
        return index.definition(a).line < index.definition(b).line;
    });
    return found;
}

NavigationAnswer find_symbol(const NavigationContext& context, const SymbolSearch& search) {
    const CodeIndex& index = context.index;
    std::vector<SymbolId> found = matching_symbols(context, search);
    NavigationAnswer answer;
    json::array symbols;
    for (std::size_t i = 0; i < found.size() && i < search.limit; ++i) {
        symbols.push_back(definition_json(context, found[i]));
        const Definition& definition = index.definition(found[i]);
        answer.text += location(index, found[i]) + " " + std::string(name(definition.kind)) + " " + index.qualified_name(found[i]);
        if (definition.signature) answer.text += "  " + std::string(index.text(found[i].file, definition.signature));
        answer.text += "\n";
    }
    if (found.empty()) answer.text = "No definition matches " + search.query + "\n";
    if (found.size() > search.limit)
        answer.text += "… and " + std::to_string(found.size() - search.limit) + " more (raise limit, or narrow with kind or path)\n";
    answer.summary = search.query + ": " + std::to_string(found.size()) + (found.size() == 1 ? " definition" : " definitions");
    answer.data = json::object{{"query", search.query},
                               {"total", found.size()},
                               {"truncated", found.size() > search.limit},
                               {"symbols", std::move(symbols)}};
    return answer;
}

}  // namespace mcpkit::analyze
