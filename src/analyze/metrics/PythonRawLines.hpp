#pragma once
// radon's raw metrics for Python (radon 5.1 `radon.raw.analyze`): the inputs of its
// maintainability index besides Halstead volume and complexity.
//
// radon does not parse: it strips every line, then takes the fewest lines that Python's tokenizer
// accepts (a bracket, a triple-quoted string or a `\` keeps a group open) and classifies each group
// by its tokens. The maintainability index is very sensitive to the comment count, so this follows
// radon token for token rather than reading the syntax tree:
// - comments: every `#` comment token, inline ones and the shebang included;
// - multi: the non-empty lines of a group that is one multi-line string and nothing else;
// - single_comments: a group that is one comment, or one single-line string;
// - lloc: per `;`-separated piece, 2 when it has a `:` that is not its last token, else 1 (0 when
//   empty); radon compares with the second-to-last token for pieces before a `;`, and so do we;
// - sloc: the non-empty lines of every other group.

#include <cstdint>
#include <string_view>

namespace mcpkit::analyze {

struct PythonRawLines {
    std::int64_t loc = 0;
    std::int64_t lloc = 0;
    std::int64_t sloc = 0;
    std::int64_t comments = 0;
    std::int64_t multi = 0;
    std::int64_t blank = 0;
    std::int64_t single_comments = 0;
    /// False when the tokenizer would have failed (an unterminated string, a group open at the
    /// end of the file): radon reports an error for such a file.
    bool tokenized = true;
};

PythonRawLines count_python_raw_lines(std::string_view source);

}  // namespace mcpkit::analyze
