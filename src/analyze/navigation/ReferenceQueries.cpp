// find-references: every use of a definition, with how it is used, where, from which definition,
// and the line it is on; uses that may mean it among other definitions are marked uncertain.

#include "analyze/navigation/NavigationQueries.hpp"

#include "analyze/project/SourceFiles.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace mcpkit::analyze {
namespace json = boost::json;
using namespace navigation;
namespace fs = std::filesystem;

namespace {

// The text of some lines of some files, read once per file.
class LineReader {
public:
    explicit LineReader(std::string root) : root_(std::move(root)) {}
    // Uses come sorted by path: one file is held at a time.
    std::string line(const std::string& path, std::uint32_t number) {
        if (path != path_) {
            path_ = path;
            content_.clear();
            std::string absolute = root_ + "/" + path;
            // A file swapped for a link since it was indexed is not followed out of the tree.
            if (regular_file_inside(fs::path(root_), absolute)) {
                std::ifstream in(absolute, std::ios::binary);
                content_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            }
        }
        std::string_view text = content_;
        for (std::uint32_t i = 1; i < number && !text.empty(); ++i) {
            std::size_t newline = text.find('\n');
            text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
        }
        text = text.substr(0, text.find('\n'));
        std::size_t begin = text.find_first_not_of(" \t");
        if (begin == std::string_view::npos) return {};
        text = text.substr(begin, 200);
        while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
        return std::string(text);
    }

private:
    std::string root_;
    std::string path_;
    std::string content_;
};

}  // namespace

NavigationAnswer find_references(const NavigationContext& context, const ReferenceSearch& search) {
    const CodeIndex& index = context.index;
    Resolution target = resolve_target(context, search.target);
    if (target.candidates.size() > 1) return ambiguous_answer(context, search.target, target);
    SymbolId definition = target.candidates.front();
    std::string_view name = index.text(definition.file, index.definition(definition).name);

    struct Use {
        SymbolId reference;
        bool certain;
        std::size_t alternatives;
    };
    std::vector<Use> uses;
    for (SymbolId reference : index.references_named(name)) {
        const Reference& use = index.reference(reference);
        if (!search.kinds.empty() && std::find(search.kinds.begin(), search.kinds.end(), use.kind) == search.kinds.end()) continue;
        Resolution meaning = index.resolve(reference);
        if (std::find(meaning.candidates.begin(), meaning.candidates.end(), definition) == meaning.candidates.end()) continue;
        if (!meaning.certain && !search.include_uncertain) continue;
        uses.push_back({reference, meaning.certain, meaning.candidates.size()});
    }
    std::sort(uses.begin(), uses.end(), [&](const Use& a, const Use& b) {
        const std::string& path_a = index.file(a.reference.file)->path;
        const std::string& path_b = index.file(b.reference.file)->path;
        if (path_a != path_b) return path_a < path_b;
        const Reference& first = index.reference(a.reference);
        const Reference& second = index.reference(b.reference);
        return first.line != second.line ? first.line < second.line : first.column < second.column;
    });
    std::size_t certain = static_cast<std::size_t>(std::count_if(uses.begin(), uses.end(), [](const Use& use) { return use.certain; }));

    NavigationAnswer answer;
    LineReader lines(context.root);
    json::array references;
    answer.text = location(index, definition) + " " + index.qualified_name(definition) + ": " + std::to_string(uses.size()) +
                  (uses.size() == 1 ? " use" : " uses") + " (" + std::to_string(certain) + " certain)\n";
    for (std::size_t i = search.offset; i < uses.size() && i < search.offset + search.limit; ++i) {
        const Use& use = uses[i];
        const Reference& reference = index.reference(use.reference);
        const std::string& path = index.file(use.reference.file)->path;
        std::string where = path + ":" + std::to_string(reference.line) + ":" + std::to_string(reference.column);
        std::string line = lines.line(path, reference.line);
        json::object item{{"location", where},
                          {"path", path},
                          {"line", reference.line},
                          {"column", reference.column},
                          {"kind", analyze::name(reference.kind)},
                          {"certain", use.certain},
                          {"text", line}};
        if (!use.certain) item["candidates"] = use.alternatives;
        std::string in;
        if (auto enclosing = enclosing_definition(index, use.reference)) {
            item["enclosing"] = json::object{{"qualifiedName", index.qualified_name(*enclosing)},
                                             {"kind", analyze::name(index.definition(*enclosing).kind)},
                                             {"location", location(index, *enclosing)}};
            in = " in " + index.qualified_name(*enclosing);
        }
        references.push_back(std::move(item));
        answer.text += "  " + where + " " + std::string(analyze::name(reference.kind)) + in + (use.certain ? "" : " (uncertain)") +
                       ": " + line + "\n";
    }
    std::size_t shown = references.size();
    if (search.offset + shown < uses.size())
        answer.text += "  … " + std::to_string(uses.size() - search.offset - shown) + " more: ask again with offset " +
                       std::to_string(search.offset + shown) + "\n";
    answer.summary = index.qualified_name(definition) + ": " + std::to_string(uses.size()) + " uses";
    answer.data = json::object{{"target", definition_json(context, definition)},
                               {"total", uses.size()},
                               {"certain", certain},
                               {"offset", search.offset},
                               {"nextOffset", search.offset + shown < uses.size() ? json::value(search.offset + shown) : json::value(nullptr)},
                               {"references", std::move(references)}};
    return answer;
}

}  // namespace mcpkit::analyze
