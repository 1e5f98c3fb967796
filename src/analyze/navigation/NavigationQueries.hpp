#pragma once
// The questions the navigation index answers, for the MCP tools and the CLI alike: each returns
// the data (JSON, the tools' `data`), a text for people and a one-line summary. Errors in what was
// asked (no such symbol, a bad location) are std::invalid_argument with a message naming the fix;
// a name that matches several definitions is not an error: the answer lists them to choose from.

#include "analyze/navigation/CodeIndex.hpp"

#include <boost/json/object.hpp>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mcpkit::analyze {

struct NavigationAnswer {
    boost::json::object data;
    std::string text;
    std::string summary;
};

/// The index and where it lives: paths in answers are relative to `root`.
struct NavigationContext {
    const CodeIndex& index;
    std::string root;
};

struct SymbolSearch {
    std::string query;                ///< a name, a qualified name (`http.Server.Serve`, `Foo::bar`) or a glob (`Serve*`)
    std::optional<SymbolKind> kind;
    std::string path;                 ///< only definitions in files under this path (relative to the root)
    std::size_t limit = 50;
};
NavigationAnswer find_symbol(const NavigationContext& context, const SymbolSearch& search);
/// What find_symbol lists, all of it (no limit), best first.
std::vector<SymbolId> matching_symbols(const NavigationContext& context, const SymbolSearch& search);

/// `target`: a qualified name, or `path:line[:column]` of a definition or a use.
struct ReferenceSearch {
    std::string target;
    std::vector<ReferenceKind> kinds;  ///< empty: all
    bool include_uncertain = true;     ///< uses that may mean the target among other definitions
    std::size_t offset = 0;
    std::size_t limit = 100;
};
NavigationAnswer find_references(const NavigationContext& context, const ReferenceSearch& search);

enum class CallDirection { callers, callees };
struct CallSearch {
    std::string target;
    CallDirection direction = CallDirection::callers;
    int depth = 1;
    std::size_t limit = 200;  ///< nodes in the whole tree
};
NavigationAnswer call_hierarchy(const NavigationContext& context, const CallSearch& search);

enum class TypeDirection { supertypes, subtypes };
struct TypeSearch {
    std::string target;
    TypeDirection direction = TypeDirection::subtypes;
    int depth = 3;
};
NavigationAnswer type_hierarchy(const NavigationContext& context, const TypeSearch& search);

struct DeadCodeSearch {
    std::string path;
    std::vector<SymbolKind> kinds;  ///< empty: functions, methods, types, constants and variables
    bool include_exported = false;  ///< exported names may be used from outside the tree
    std::size_t limit = 200;
};
NavigationAnswer find_dead_code(const NavigationContext& context, const DeadCodeSearch& search);

struct ImpactSearch {
    std::string base = "HEAD";  ///< the git ref the working tree is compared with
    std::string diff;           ///< or a unified diff to read instead of asking git
    int depth = 3;
    std::size_t limit = 200;
};
NavigationAnswer change_impact(const NavigationContext& context, const ImpactSearch& search);

// Shared by the queries (NavigationQueries.cpp).
namespace navigation {

/// The definitions a target names: a qualified name, or a definition or use at path:line[:column].
/// Never empty: throws std::invalid_argument when nothing matches, with the nearest names as
/// suggestions.
Resolution resolve_target(const NavigationContext& context, const std::string& target);
boost::json::object definition_json(const NavigationContext& context, SymbolId id);
std::string location(const CodeIndex& index, SymbolId definition);
/// The definitions a reference may mean when it is a call; nothing for file-level code.
std::optional<SymbolId> enclosing_definition(const CodeIndex& index, SymbolId reference);
/// Tells the caller the answer lists candidates rather than results.
NavigationAnswer ambiguous_answer(const NavigationContext& context, const std::string& target, const Resolution& resolution);

}  // namespace navigation

}  // namespace mcpkit::analyze
