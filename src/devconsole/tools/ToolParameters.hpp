#pragma once
// The parameters and modes of the five tools as the original project's v0.7.8 schema has them
// (tool-parameters.json, compiled in), so that assistants configured for it call mcpkit alike.

#include <string_view>

namespace mcpkit::devconsole {

std::string_view tool_parameters();  ///< src/devconsole/tools/tool-parameters.json

}  // namespace mcpkit::devconsole
