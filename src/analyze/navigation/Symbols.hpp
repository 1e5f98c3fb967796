#pragma once
// What the navigation index knows of one file: the names it defines (with kind, container,
// signature, place and the first line of their documentation), the names it uses (with how:
// call, read, write, import, type, and from which definition), the supertypes it names and the
// modules it imports under which local names. Plain data, compact on purpose: a large tree has
// millions of references, so names are ids into the file's own string table.

#include "analyze/syntax/Language.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::analyze {

enum class SymbolKind : std::uint8_t {
    function, method, class_type, struct_type, union_type, enum_type, interface, trait, type_alias,
    constant, variable, field, enum_member, macro, namespace_, module
};
inline constexpr int symbol_kind_count = 16;

enum class ReferenceKind : std::uint8_t { call, read, write, import, type };

enum class RelationKind : std::uint8_t {
    extends,     ///< a class's or interface's supertype
    implements,  ///< an interface a class implements (Java, TypeScript), a trait a Rust type implements
    embeds       ///< Go: a struct or interface embedding another type
};

/// "function", "method", "class", "struct", "union", "enum", "interface", "trait", "type",
/// "constant", "variable", "field", "enumMember", "macro", "namespace", "module".
std::string_view name(SymbolKind kind);
std::optional<SymbolKind> parse_symbol_kind(std::string_view text);
/// Functions, methods and the kinds that make types: what "callable" and "type" queries accept.
bool is_callable(SymbolKind kind);
bool is_type(SymbolKind kind);
std::string_view name(ReferenceKind kind);
std::string_view name(RelationKind kind);

/// An id into FileSymbols::strings; 0 is the empty string.
using StringId = std::uint32_t;

struct Definition {
    StringId name = 0;
    StringId container = 0;  ///< the enclosing type's (or Go receiver's) name, "Outer.Inner" when nested
    StringId signature = 0;  ///< the declaration up to its body, on one line
    StringId doc = 0;        ///< the documentation's first line
    SymbolKind kind = SymbolKind::function;
    bool exported = false;   ///< visible outside its file or package (Go capitals, `pub`, `export`, public, not static)
    std::uint32_t line = 0;  ///< 1-based, of the name
    std::uint32_t column = 0;  ///< 1-based, in bytes
    std::uint32_t end_line = 0;  ///< the whole definition's last line
    std::int32_t parent = -1;    ///< the enclosing definition's index, -1 at file level
};

struct Reference {
    StringId name = 0;
    StringId qualifier = 0;  ///< what the name was reached through: `os` in os.Open, `self`, `Foo` in Foo::bar
    ReferenceKind kind = ReferenceKind::read;
    bool member = false;  ///< reached through something (`x.name`, `a::name`), even when that is not simple enough to keep
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::int32_t enclosing = -1;  ///< the definition it occurs in, -1 at file level
};

struct Relation {
    std::int32_t type = -1;  ///< the definition that names the supertype, -1 when it is elsewhere (Rust impl blocks)
    StringId subject = 0;    ///< that type's name
    StringId target = 0;     ///< the supertype's name as written, without qualifier or type arguments
    StringId qualifier = 0;  ///< its package or module, when written (`io` in io.Reader)
    RelationKind kind = RelationKind::extends;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
};

/// A name an import binds in the file: `alias` is what the code writes (`np`, `http`, `Foo`),
/// `module` where it comes from (`numpy`, `net/http`, `a.b`), `member` the imported name when the
/// import names one (`from m import f`, `import {f} from "m"`, `import a.b.Foo`, `use a::b::Foo`).
struct ImportBinding {
    StringId alias = 0;
    StringId module = 0;
    StringId member = 0;
    std::uint32_t line = 0;
};

struct FileSymbols {
    std::string path;  ///< relative to the index's root
    Language language = Language::c;
    std::string package;  ///< Go's package clause, Java's package, else empty
    std::vector<std::string> strings{std::string()};
    std::vector<Definition> definitions;
    std::vector<Reference> references;
    std::vector<Relation> relations;
    std::vector<ImportBinding> imports;
    bool parse_failed = false;  ///< timed out: the file is listed but knows nothing

    std::string_view text(StringId id) const { return strings[id]; }
};

}  // namespace mcpkit::analyze
