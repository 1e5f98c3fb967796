#pragma once
// Blank, comment and code lines exactly as cloc 1.96 counts them (its default options), so that
// `mcpkit analyze report` and `cloc` agree per file and per language.
//
// cloc works on text, not on a syntax tree, and its rules have quirks we reproduce on purpose:
// - C-family languages: `//` and `/* */` comments are removed with no notion of strings, a line
//   ending in `\` is joined with the next one, and a block comment between code on two lines
//   merges them into one code line;
// - Python: every `"""`/`'''` pair is a comment (a docstring or not), a line holding `/*` or `*/`
//   is a comment, `#` lines are comments and an inline `# ...` leaves the line code;
// - after every filter a blank line is dropped unless the line before it ends in `\`.
// docs/analyze.md lists where this differs from what a syntax tree would say.

#include "analyze/metrics/FileReport.hpp"
#include "analyze/syntax/Language.hpp"

#include <string_view>

namespace mcpkit::analyze {

LineCounts count_lines(std::string_view source, Language language);

}  // namespace mcpkit::analyze
