// find-dead-code: definitions no use in the tree may mean. Conservative on purpose: a use that may
// mean a definition among others keeps it alive, and so does any member use of its name when the
// receiver's type is unknown (an interface call, a callback); entry points (main, tests, dunder
// methods, constructors, overrides) are never reported. Exported names are left out unless asked
// for: code outside the tree may use them.

#include "analyze/navigation/NavigationQueries.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <set>
#include <unordered_set>

namespace mcpkit::analyze {
namespace json = boost::json;
using namespace navigation;

namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }
bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Called by the runtime, a test runner or a framework rather than by code in the tree.
bool entry_point(const FileSymbols& file, const Definition& definition) {
    std::string_view name = file.text(definition.name);
    std::string_view signature = file.text(definition.signature);
    if (name == "main") return true;
    switch (file.language) {
    case Language::go:
        if (name == "init") return true;
        if (ends_with(file.path, "_test.go") &&
            (starts_with(name, "Test") || starts_with(name, "Benchmark") || starts_with(name, "Example") || starts_with(name, "Fuzz")))
            return true;
        return false;
    case Language::python:
        if (starts_with(name, "__") && ends_with(name, "__")) return true;
        return starts_with(name, "test") || name == "setUp" || name == "tearDown" || name == "setUpClass" || name == "tearDownClass";
    case Language::java:
        return name == file.text(definition.container).substr(file.text(definition.container).rfind('.') + 1) ||
               signature.find("@Override") != std::string_view::npos || signature.find("@Test") != std::string_view::npos;
    case Language::rust: {
        // #[test] functions live in `mod tests` (attributes are not kept) or are named test_….
        std::string_view container = file.text(definition.container);
        bool in_tests = container == "tests" || container.find("tests.") == 0 || container.find(".tests") != std::string_view::npos;
        return name == "new" || name == "drop" || name == "fmt" || name == "default" || in_tests || starts_with(name, "test_");
    }
    case Language::javascript:
    case Language::typescript:
    case Language::tsx: return name == "constructor" || name == "render";
    case Language::c:
    case Language::cpp:
        // Constructors, destructors, operators and overrides are called by the language itself.
        return name == file.text(definition.container).substr(file.text(definition.container).rfind('.') + 1) ||
               starts_with(name, "~") || starts_with(name, "operator") || signature.find("override") != std::string_view::npos;
    }
    return false;
}

bool default_kind(SymbolKind kind) {
    return kind == SymbolKind::function || kind == SymbolKind::method || is_type(kind) || kind == SymbolKind::constant ||
           kind == SymbolKind::variable;
}

}  // namespace

NavigationAnswer find_dead_code(const NavigationContext& context, const DeadCodeSearch& search) {
    const CodeIndex& index = context.index;
    auto wanted_kind = [&](SymbolKind kind) {
        return search.kinds.empty() ? default_kind(kind) : std::find(search.kinds.begin(), search.kinds.end(), kind) != search.kinds.end();
    };
    auto under_path = [&](const std::string& path) {
        if (search.path.empty() || search.path == ".") return true;
        if (path.rfind(search.path, 0) != 0) return false;
        return path.size() == search.path.size() || search.path.back() == '/' || path[search.path.size()] == '/';
    };
    // The candidates, and the names worth resolving uses of.
    std::vector<SymbolId> candidates;
    std::set<std::string_view> names;
    for (std::uint32_t slot = 0; slot < index.slot_count(); ++slot) {
        const FileSymbols* file = index.file(slot);
        if (!file || !under_path(file->path)) continue;
        for (std::uint32_t i = 0; i < file->definitions.size(); ++i) {
            const Definition& definition = file->definitions[i];
            if (!wanted_kind(definition.kind) || entry_point(*file, definition)) continue;
            candidates.push_back({slot, i});
            names.insert(file->text(definition.name));
        }
    }
    // Each use resolved once; what it may mean is alive (unless it is the definition's own body
    // calling itself).
    std::set<SymbolId> alive;
    std::unordered_set<std::string_view> member_names;
    for (std::string_view name : names) {
        for (SymbolId reference : index.references_named(name)) {
            Resolution meaning = index.resolve(reference);
            if (index.reference(reference).member && !meaning.certain) member_names.insert(name);
            std::optional<SymbolId> within = enclosing_definition(index, reference);
            for (SymbolId candidate : meaning.candidates)
                if (!within || !(*within == candidate)) alive.insert(candidate);
        }
    }
    std::vector<SymbolId> dead;
    std::size_t exported_unused = 0;
    for (SymbolId id : candidates) {
        if (alive.count(id)) continue;
        const Definition& definition = index.definition(id);
        // A method whose name is used on something of unknown type may be what that call reaches.
        if (definition.kind == SymbolKind::method && member_names.count(index.text(id.file, definition.name))) continue;
        if (definition.exported && !search.include_exported) {
            ++exported_unused;
            continue;
        }
        dead.push_back(id);
    }
    std::sort(dead.begin(), dead.end(), [&](SymbolId a, SymbolId b) {
        const std::string& path_a = index.file(a.file)->path;
        const std::string& path_b = index.file(b.file)->path;
        return path_a != path_b ? path_a < path_b : index.definition(a).line < index.definition(b).line;
    });
    NavigationAnswer answer;
    json::array items;
    for (std::size_t i = 0; i < dead.size() && i < search.limit; ++i) {
        json::object item = definition_json(context, dead[i]);
        items.push_back(std::move(item));
        const Definition& definition = index.definition(dead[i]);
        answer.text += location(index, dead[i]) + " " + std::string(name(definition.kind)) + " " + index.qualified_name(dead[i]) +
                       (definition.exported ? " (exported: may be used from outside the tree)" : "") + "\n";
    }
    if (dead.empty()) answer.text = "Nothing unused found";
    if (dead.size() > search.limit) answer.text += "… and " + std::to_string(dead.size() - search.limit) + " more\n";
    if (exported_unused)
        answer.text += std::to_string(exported_unused) +
                       " exported definitions have no use in the tree either (includeExported lists them; code outside the "
                       "tree may use them)\n";
    answer.summary = std::to_string(dead.size()) + " unused definitions" +
                     (exported_unused ? ", " + std::to_string(exported_unused) + " exported ones unused in the tree" : "");
    answer.data = json::object{{"total", dead.size()},
                               {"exportedUnused", exported_unused},
                               {"truncated", dead.size() > search.limit},
                               {"caveats",
                                "Uses are found by name and syntax: calls through reflection, strings, macros or generated code "
                                "are not seen, and a method called on a value of unknown type counts as used."},
                               {"definitions", std::move(items)}};
    return answer;
}

}  // namespace mcpkit::analyze
