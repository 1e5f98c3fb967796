#pragma once
// Reading names out of definitions, per grammar: what a function, a type or an import is called.

#include "analyze/metrics/FileReport.hpp"
#include "analyze/syntax/SyntaxTree.hpp"

#include <string>
#include <vector>

namespace mcpkit::analyze {

/// The function's own name ("<anonymous>" when it has none); for closures, the variable,
/// property or field it is assigned to, if any, or the call it is passed to. The caller gives the
/// function's parent and grandparent (null nodes at the root): ts_node_parent searches down from the
/// root, which made deeply nested closures quadratic.
std::string function_name(const SyntaxTree& tree, TSNode function, TSNode parent, TSNode grandparent);
/// Go methods: the receiver's type ("Server" for `func (s *Server) Run()`), else empty.
std::string receiver_type(const SyntaxTree& tree, TSNode function);
/// The type's name, or empty for anonymous ones and for mere references (`struct x;`,
/// `struct x *p`), which are not definitions.
std::string type_name(const SyntaxTree& tree, TSNode type);
/// "class", "struct", "union", "enum", "interface", "trait", "impl", "namespace", "module", "type".
std::string type_kind(const SyntaxTree& tree, TSNode type);
/// The imports a node states (an import statement may name several modules).
void collect_imports(const SyntaxTree& tree, TSNode node, std::vector<Import>& imports);
int count_parameters(TSNode parameter_list);

}  // namespace mcpkit::analyze
