// get-call-hierarchy and get-type-hierarchy: trees of callers or callees, supertypes or subtypes,
// to a depth, each node with its place and how sure the index is of the link.

#include "analyze/navigation/NavigationQueries.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace mcpkit::analyze {
namespace json = boost::json;
using namespace navigation;

namespace {

struct CallSite {
    SymbolId reference;
    bool certain;
};

class CallTree {
public:
    CallTree(const NavigationContext& context, const CallSearch& search) : context_(context), index_(context.index), search_(search) {}

    json::array children(SymbolId of, int depth, const std::string& indent, std::string& text) {
        json::array nodes;
        if (depth > search_.depth) return nodes;
        std::map<std::optional<SymbolId>, std::vector<CallSite>> grouped;
        std::map<std::string, std::vector<SymbolId>> unresolved;
        if (search_.direction == CallDirection::callers) {
            std::string_view name = index_.text(of.file, index_.definition(of).name);
            for (SymbolId reference : index_.references_named(name)) {
                if (index_.reference(reference).kind != ReferenceKind::call) continue;
                Resolution meaning = index_.resolve(reference);
                if (std::find(meaning.candidates.begin(), meaning.candidates.end(), of) == meaning.candidates.end()) continue;
                std::optional<SymbolId> caller = enclosing_definition(index_, reference);
                if (!caller) caller = SymbolId{reference.file, file_level};
                grouped[caller].push_back({reference, meaning.certain});
            }
        } else {
            const FileSymbols& file = *index_.file(of.file);
            for (std::uint32_t i = 0; i < file.references.size(); ++i) {
                const Reference& reference = file.references[i];
                if (reference.kind != ReferenceKind::call || reference.enclosing != static_cast<std::int32_t>(of.item)) continue;
                Resolution meaning = index_.resolve({of.file, i});
                if (meaning.candidates.empty()) {
                    std::string called(file.text(reference.qualifier));
                    if (!called.empty()) called += '.';
                    called += file.text(reference.name);
                    unresolved[called].push_back({of.file, i});
                    continue;
                }
                for (SymbolId callee : meaning.candidates) grouped[callee].push_back({{of.file, i}, meaning.certain});
            }
        }
        for (auto& [who, sites] : grouped) {
            if (count_ >= search_.limit) {
                truncated_ = true;
                break;
            }
            ++count_;
            json::object node;
            bool certain = std::any_of(sites.begin(), sites.end(), [](const CallSite& site) { return site.certain; });
            std::string label;
            if (who->item == file_level) {
                const std::string& path = index_.file(who->file)->path;
                node = json::object{{"name", "(file level)"}, {"path", path}};
                label = path + " (file level)";
            } else {
                node = definition_json(context_, *who);
                label = location(index_, *who) + " " + index_.qualified_name(*who);
            }
            json::array calls;
            for (const CallSite& site : sites) {
                const Reference& reference = index_.reference(site.reference);
                calls.push_back(json::string(index_.file(site.reference.file)->path + ":" + std::to_string(reference.line) + ":" +
                                             std::to_string(reference.column)));
            }
            node["calls"] = std::move(calls);
            node["certain"] = certain;
            text += indent + label + (certain ? "" : " (uncertain)") + "\n";
            bool expandable = who->item != file_level && depth < search_.depth;
            if (expandable && visited_.insert(*who).second) {
                node["children"] = children(*who, depth + 1, indent + "  ", text);
            } else if (expandable) {
                node["recursive"] = true;  // already shown above: a cycle or a shared caller
            }
            nodes.push_back(std::move(node));
        }
        for (const auto& [called, sites] : unresolved) {
            json::array calls;
            for (SymbolId site : sites) {
                const Reference& reference = index_.reference(site);
                calls.push_back(json::string(index_.file(site.file)->path + ":" + std::to_string(reference.line) + ":" +
                                             std::to_string(reference.column)));
            }
            nodes.push_back(json::object{{"name", called}, {"defined", false}, {"calls", std::move(calls)}});
            text += indent + called + " (not defined in the tree)\n";
        }
        return nodes;
    }

    bool truncated() const { return truncated_; }
    std::size_t count() const { return count_; }
    std::set<SymbolId> visited_;

private:
    static constexpr std::uint32_t file_level = 0xFFFFFFFF;
    const NavigationContext& context_;
    const CodeIndex& index_;
    const CallSearch& search_;
    std::size_t count_ = 0;
    bool truncated_ = false;
};

// Go: the methods a type has, by name (its package is its directory).
std::set<std::string> go_method_names(const CodeIndex& index, SymbolId type) {
    std::set<std::string> names;
    const FileSymbols& file = *index.file(type.file);
    std::string_view type_name = file.text(index.definition(type).name);
    std::string_view directory = std::string_view(file.path).substr(0, file.path.rfind('/') + 1);
    if (index.definition(type).kind == SymbolKind::interface) {
        for (std::uint32_t i = 0; i < file.definitions.size(); ++i)
            if (file.definitions[i].parent == static_cast<std::int32_t>(type.item) && file.definitions[i].kind == SymbolKind::method)
                names.emplace(file.text(file.definitions[i].name));
        return names;
    }
    for (std::uint32_t slot = 0; slot < index.slot_count(); ++slot) {
        const FileSymbols* other = index.file(slot);
        if (!other || other->language != Language::go || other->path.rfind(directory, 0) != 0 ||
            other->path.find('/', directory.size()) != std::string::npos)
            continue;
        for (const Definition& definition : other->definitions)
            if (definition.kind == SymbolKind::method && other->text(definition.container) == type_name)
                names.emplace(other->text(definition.name));
    }
    return names;
}

}  // namespace

NavigationAnswer call_hierarchy(const NavigationContext& context, const CallSearch& search) {
    Resolution target = resolve_target(context, search.target);
    if (target.candidates.size() > 1) return ambiguous_answer(context, search.target, target);
    SymbolId root = target.candidates.front();
    NavigationAnswer answer;
    std::string direction = search.direction == CallDirection::callers ? "callers" : "callees";
    answer.text = location(context.index, root) + " " + context.index.qualified_name(root) + ", " + direction + ":\n";
    CallTree tree(context, search);
    tree.visited_.insert(root);
    json::array nodes = tree.children(root, 1, "  ", answer.text);
    if (nodes.empty()) answer.text += "  (none in the index)\n";
    if (tree.truncated()) answer.text += "  … more: raise limit\n";
    answer.summary = context.index.qualified_name(root) + ": " + std::to_string(nodes.size()) + " direct " + direction;
    answer.data = json::object{{"target", definition_json(context, root)},
                               {"direction", direction},
                               {"depth", search.depth},
                               {"truncated", tree.truncated()},
                               {"nodes", tree.count()},
                               {"children", std::move(nodes)}};
    return answer;
}

NavigationAnswer type_hierarchy(const NavigationContext& context, const TypeSearch& search) {
    const CodeIndex& index = context.index;
    Resolution target = resolve_target(context, search.target);
    if (target.candidates.size() > 1) return ambiguous_answer(context, search.target, target);
    SymbolId root = target.candidates.front();
    if (!is_type(index.definition(root).kind))
        throw std::invalid_argument(search.target + " is a " + std::string(name(index.definition(root).kind)) +
                                    ", not a type: get-type-hierarchy wants a class, struct, interface, trait or enum");
    std::set<SymbolId> visited{root};
    NavigationAnswer answer;
    bool up = search.direction == TypeDirection::supertypes;
    answer.text = location(index, root) + " " + index.qualified_name(root) + ", " + (up ? "supertypes" : "subtypes") + ":\n";
    std::function<json::array(SymbolId, int, const std::string&)> expand = [&](SymbolId of, int depth, const std::string& indent) {
        json::array nodes;
        auto add = [&](SymbolId type, std::string relation, bool certain) {
            json::object node = definition_json(context, type);
            node["relation"] = relation;
            node["certain"] = certain;
            answer.text += indent + relation + " " + location(index, type) + " " + index.qualified_name(type) +
                           (certain ? "" : " (uncertain)") + "\n";
            if (depth < search.depth && visited.insert(type).second) node["children"] = expand(type, depth + 1, indent + "  ");
            nodes.push_back(std::move(node));
        };
        if (up) {
            for (CodeIndex::RelationId relation : index.relations_of(of)) {
                const FileSymbols& file = *index.file(relation.file);
                const Relation& link = file.relations[relation.item];
                Resolution meaning = index.resolve_relation(relation);
                if (meaning.candidates.empty()) {
                    std::string outside(file.text(link.qualifier));
                    if (!outside.empty()) outside += '.';
                    outside += file.text(link.target);
                    nodes.push_back(json::object{{"name", outside}, {"relation", name(link.kind)}, {"defined", false}});
                    answer.text += indent + std::string(name(link.kind)) + " " + outside + " (not defined in the tree)\n";
                    continue;
                }
                for (SymbolId type : meaning.candidates) add(type, std::string(name(link.kind)), meaning.certain);
            }
        } else {
            std::string_view type_name = index.text(of.file, index.definition(of).name);
            for (CodeIndex::RelationId relation : index.relations_to(type_name)) {
                Resolution meaning = index.resolve_relation(relation);
                if (std::find(meaning.candidates.begin(), meaning.candidates.end(), of) == meaning.candidates.end()) continue;
                const Relation& link = index.file(relation.file)->relations[relation.item];
                for (SymbolId subject : index.relation_subjects(relation)) add(subject, std::string(name(link.kind)), meaning.certain);
            }
        }
        // Go: an interface is implemented by every type of its package or another with all its methods.
        const FileSymbols& file = *index.file(of.file);
        if (file.language == Language::go && !up && index.definition(of).kind == SymbolKind::interface) {
            std::set<std::string> wanted = go_method_names(index, of);
            if (!wanted.empty()) {
                std::set<std::pair<std::string, std::string>> checked;  // directory, type
                for (SymbolId method : index.definitions_named(*wanted.begin())) {
                    const FileSymbols& owner = *index.file(method.file);
                    const Definition& definition = index.definition(method);
                    if (owner.language != Language::go || definition.kind != SymbolKind::method || !definition.container ||
                        definition.parent >= 0)
                        continue;
                    std::string directory = owner.path.substr(0, owner.path.rfind('/') + 1);
                    std::string type_name(owner.text(definition.container));
                    if (!checked.insert({directory, type_name}).second) continue;
                    for (SymbolId type : index.definitions_named(type_name)) {
                        const std::string& type_path = index.file(type.file)->path;
                        if (type_path.rfind(directory, 0) != 0 || type_path.find('/', directory.size()) != std::string::npos ||
                            !is_type(index.definition(type).kind) || index.definition(type).kind == SymbolKind::interface)
                            continue;
                        std::set<std::string> has = go_method_names(index, type);
                        if (std::includes(has.begin(), has.end(), wanted.begin(), wanted.end())) add(type, "implements (method set)", true);
                    }
                }
            }
        }
        return nodes;
    };
    json::array nodes = expand(root, 1, "  ");
    if (nodes.empty()) answer.text += "  (none in the index)\n";
    answer.summary = index.qualified_name(root) + ": " + std::to_string(nodes.size()) + (up ? " direct supertypes" : " direct subtypes");
    answer.data = json::object{{"target", definition_json(context, root)},
                               {"direction", up ? "supertypes" : "subtypes"},
                               {"depth", search.depth},
                               {"children", std::move(nodes)}};
    return answer;
}

}  // namespace mcpkit::analyze
