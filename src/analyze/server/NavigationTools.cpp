// The navigation tools: find-symbol, find-references, get-call-hierarchy, get-type-hierarchy,
// get-change-impact, find-dead-code. Each asks the live index of its projectPath, built on the
// first call (with progress, cancellable) and kept current by a watcher afterwards.

#include "analyze/server/AnalyzeServer.hpp"

#include "analyze/navigation/LiveIndex.hpp"
#include "analyze/navigation/NavigationQueries.hpp"
#include "analyze/server/PathArguments.hpp"
#include "analyze/server/ToolCatalog.hpp"

#include <boost/json.hpp>

#include <list>
#include <map>
#include <mutex>

namespace mcpkit::analyze {
namespace json = boost::json;

namespace {

/// The live indexes, one per tree asked about, the least recently used dropped past a few.
class IndexRegistry {
    struct Slot {
        std::mutex building;
        std::shared_ptr<LiveIndex> index;
    };

public:
    explicit IndexRegistry(const AnalyzeServerOptions& options) : options_(options) {}

    std::shared_ptr<LiveIndex> get(const std::string& root, CallControl& control) {
        std::shared_ptr<Slot> slot;
        {
            std::lock_guard lock(mutex_);
            auto& entry = slots_[root];
            if (!entry) entry = std::make_shared<Slot>();
            slot = entry;
            recent_.remove(root);
            recent_.push_front(root);
            while (recent_.size() > max_trees) {
                slots_.erase(recent_.back());
                recent_.pop_back();
            }
        }
        // One build per tree: a second caller waits for the first, then shares its index.
        std::lock_guard building(slot->building);
        if (slot->index) return slot->index;
        ProjectOptions options;
        options.cache_path = options_.cache_path;
        options.max_file_bytes = options_.max_file_bytes;
        options.max_files = 300000;  // the Linux kernel has 70,000; / has millions
        options.cancel = control.cancelled;
        options.progress = [&control](std::size_t done, std::size_t total) {
            control.progress(double(done), double(total), "indexed " + std::to_string(done) + " of " + std::to_string(total) + " files");
        };
        try {
            slot->index = std::make_shared<LiveIndex>(root, options);
        } catch (const LiveIndex::Cancelled&) {
            forget(root, slot);
            return nullptr;
        } catch (const std::invalid_argument& error) {
            forget(root, slot);  // a tree that cannot be indexed must not push out those that are
            throw ToolError(status_code::bad_request, error.what());
        }
        return slot->index;
    }

private:
    void forget(const std::string& root, const std::shared_ptr<Slot>& slot) {
        std::lock_guard lock(mutex_);
        auto found = slots_.find(root);
        if (found != slots_.end() && found->second == slot && !slot->index) {
            slots_.erase(found);
            recent_.remove(root);
        }
    }
    static constexpr std::size_t max_trees = 8;
    AnalyzeServerOptions options_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Slot>> slots_;
    std::list<std::string> recent_;
};

std::size_t count_argument(const json::object& arguments, std::string_view key, std::size_t fallback, std::size_t maximum) {
    const json::value* value = arguments.if_contains(key);
    if (!value) return fallback;
    if (!value->is_int64() || value->get_int64() < 0 || static_cast<std::uint64_t>(value->get_int64()) > maximum)
        throw ToolError(status_code::bad_request, std::string(key) + " must be a whole number from 0 to " + std::to_string(maximum));
    return static_cast<std::size_t>(value->get_int64());
}

bool flag_argument(const json::object& arguments, std::string_view key, bool fallback) {
    const json::value* value = arguments.if_contains(key);
    if (!value) return fallback;
    if (!value->is_bool()) throw ToolError(status_code::bad_request, std::string(key) + " must be true or false");
    return value->get_bool();
}

std::vector<std::string> strings_argument(const json::object& arguments, std::string_view key) {
    std::vector<std::string> values;
    const json::value* value = arguments.if_contains(key);
    if (!value) return values;
    if (!value->is_array()) throw ToolError(status_code::bad_request, std::string(key) + " must be an array of strings");
    for (const json::value& item : value->get_array()) {
        if (!item.is_string()) throw ToolError(status_code::bad_request, std::string(key) + " must be an array of strings");
        values.emplace_back(item.get_string());
    }
    return values;
}

SymbolKind kind_argument(const std::string& text, std::string_view field) {
    auto kind = parse_symbol_kind(text);
    if (!kind)
        throw ToolError(status_code::bad_request,
                        std::string(field) + " \"" + text + "\" is not a kind: use function, method, class, struct, union, enum, "
                                                            "interface, trait, type, constant, variable, field, enumMember, macro, "
                                                            "namespace or module");
    return *kind;
}

ToolOutput to_output(NavigationAnswer answer, const LiveIndex& index) {
    ToolOutput output;
    index.read([&](const IndexBuild& build) {
        json::object about{{"root", build.root},
                           {"files", build.index.file_count()},
                           {"definitions", build.index.definition_count()},
                           {"references", build.index.reference_count()}};
        if (std::string problem = index.watch_problem(); !problem.empty()) about["watching"] = problem;
        answer.data["index"] = std::move(about);
    });
    output.data = std::move(answer.data);
    output.text = std::move(answer.text);
    output.summary = std::move(answer.summary);
    output.subject = index.root();
    return output;
}

}  // namespace

void add_navigation_tools(mcp::Server& server, CallRunner& runner, const AnalyzeServerOptions& options) {
    auto paths = std::make_shared<const PathArguments>(options.root, options.confine_to_root);
    auto registry = std::make_shared<IndexRegistry>(options);
    // Every tool: find the tree, get its index, ask it under the read lock.
    using Question = std::function<NavigationAnswer(const NavigationContext&, const json::object&)>;
    auto add = [&](const char* tool_name, Question question) {
        ToolBody body = [paths, registry, question = std::move(question)](const json::object& arguments, CallControl& control) {
            std::string root = paths->resolve("projectPath", optional_string(arguments, "projectPath").value_or("."));
            std::shared_ptr<LiveIndex> index = registry->get(root, control);
            if (!index) return ToolOutput{};  // cancelled while indexing: the runner answers so
            NavigationAnswer answer = index->read([&](const IndexBuild& build) {
                try {
                    return question(NavigationContext{build.index, build.root}, arguments);
                } catch (const std::invalid_argument& error) {
                    std::string_view message = error.what();
                    throw ToolError(message.rfind("No definition", 0) == 0 ? status_code::not_found : status_code::bad_request,
                                    error.what());
                }
            });
            return to_output(std::move(answer), *index);
        };
        server.add_tool(catalog_tool(tool_name),
                        [&runner, name = std::string(tool_name), body = std::move(body)](mcp::ToolCall& call) {
                            return runner.run(name, call, body);
                        },
                        runner.tool_options(tool_name, true, true));
    };

    add("find-symbol", [](const NavigationContext& context, const json::object& arguments) {
        SymbolSearch search;
        search.query = required_string(arguments, "query", "a name, a qualified name or a pattern such as Serve*");
        if (auto kind = optional_string(arguments, "kind")) search.kind = kind_argument(*kind, "kind");
        search.path = optional_string(arguments, "path").value_or("");
        search.limit = count_argument(arguments, "limit", 50, 5000);
        return find_symbol(context, search);
    });
    add("find-references", [](const NavigationContext& context, const json::object& arguments) {
        ReferenceSearch search;
        search.target = required_string(arguments, "symbol", "a qualified name such as Server.Serve, or path:line:column");
        for (const std::string& kind : strings_argument(arguments, "kinds")) {
            constexpr std::pair<std::string_view, ReferenceKind> names[] = {{"call", ReferenceKind::call}, {"read", ReferenceKind::read},
                                                                             {"write", ReferenceKind::write}, {"import", ReferenceKind::import},
                                                                             {"type", ReferenceKind::type}};
            auto found = std::find_if(std::begin(names), std::end(names), [&](const auto& entry) { return entry.first == kind; });
            if (found == std::end(names))
                throw ToolError(status_code::bad_request, "kinds: \"" + kind + "\" is not a kind of use: call, read, write, import or type");
            search.kinds.push_back(found->second);
        }
        search.include_uncertain = flag_argument(arguments, "includeUncertain", true);
        search.offset = count_argument(arguments, "offset", 0, 100000000);
        search.limit = count_argument(arguments, "limit", 100, 5000);
        return find_references(context, search);
    });
    add("get-call-hierarchy", [](const NavigationContext& context, const json::object& arguments) {
        CallSearch search;
        search.target = required_string(arguments, "symbol", "the function, e.g. Store.save or path:line:column");
        std::string direction = optional_string(arguments, "direction").value_or("callers");
        if (direction != "callers" && direction != "callees")
            throw ToolError(status_code::bad_request, "direction must be callers or callees");
        search.direction = direction == "callers" ? CallDirection::callers : CallDirection::callees;
        search.depth = static_cast<int>(count_argument(arguments, "depth", 1, 10));
        if (search.depth < 1) throw ToolError(status_code::bad_request, "depth must be from 1 to 10");
        search.limit = count_argument(arguments, "limit", 200, 5000);
        return call_hierarchy(context, search);
    });
    add("get-type-hierarchy", [](const NavigationContext& context, const json::object& arguments) {
        TypeSearch search;
        search.target = required_string(arguments, "symbol", "the type, e.g. io.Reader");
        std::string direction = optional_string(arguments, "direction").value_or("subtypes");
        if (direction != "subtypes" && direction != "supertypes")
            throw ToolError(status_code::bad_request, "direction must be subtypes or supertypes");
        search.direction = direction == "subtypes" ? TypeDirection::subtypes : TypeDirection::supertypes;
        search.depth = static_cast<int>(count_argument(arguments, "depth", 3, 10));
        if (search.depth < 1) throw ToolError(status_code::bad_request, "depth must be from 1 to 10");
        return type_hierarchy(context, search);
    });
    add("get-change-impact", [](const NavigationContext& context, const json::object& arguments) {
        ImpactSearch search;
        search.base = optional_string(arguments, "base").value_or("HEAD");
        search.diff = optional_string(arguments, "diff").value_or("");
        search.depth = static_cast<int>(count_argument(arguments, "depth", 3, 10));
        search.limit = count_argument(arguments, "limit", 200, 5000);
        return change_impact(context, search);
    });
    add("find-dead-code", [](const NavigationContext& context, const json::object& arguments) {
        DeadCodeSearch search;
        search.path = optional_string(arguments, "path").value_or("");
        for (const std::string& kind : strings_argument(arguments, "kinds")) search.kinds.push_back(kind_argument(kind, "kinds"));
        search.include_exported = flag_argument(arguments, "includeExported", false);
        search.limit = count_argument(arguments, "limit", 200, 5000);
        return find_dead_code(context, search);
    });
}

}  // namespace mcpkit::analyze
